/* global document, navigator, window */
// Progressive enhancement for the settings pages (loaded with the page's CSP nonce; no inline
// handlers). A "Copy" button next to a secret shown once: hidden without JavaScript, where the
// read-only field can still be selected and copied by hand.
(function () {
  function copy(button) {
    var input = document.getElementById(button.getAttribute('data-copy-target'));
    if (!input) return;
    var done = function () {
      button.textContent = 'Copied';
      setTimeout(function () { button.textContent = 'Copy'; }, 2000);
    };
    input.focus();
    input.select();
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(input.value).then(done, function () {
        if (document.execCommand('copy')) done();
      });
    } else if (document.execCommand('copy')) {
      done();
    }
  }
  function init() {
    var buttons = document.querySelectorAll('button[data-copy-target]');
    for (var i = 0; i < buttons.length; i++) {
      buttons[i].hidden = false;
      buttons[i].addEventListener('click', function (e) { copy(e.currentTarget); });
    }
    var secrets = document.querySelectorAll('input.secret-value');
    for (var j = 0; j < secrets.length; j++) {
      secrets[j].addEventListener('focus', function (e) { e.currentTarget.select(); });
    }
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
})();
