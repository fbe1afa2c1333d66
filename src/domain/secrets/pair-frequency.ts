// How often a pair of characters occurs in agent session logs: the 400 most frequent printable
// pairs, most frequent first, measured on a corpus of real Claude Code, Codex and Gemini CLI logs
// (JSONL records, shell output, code). The prefilter stops wherever a key's last two characters
// occur, so anchors.ts keys each token prefix on its rarest pair.
const COMMON_PAIRS = "\":\\n,\"inreonteen:\"es\",erntsetostat\\\"ortilecoalmean\\\\deuttanse\"\"tioedithepethssndngarex{\"s\"trassiacecetpachodyproraged\"_tustyken\\riokt\"t_ilislipuceidom\"cimoloucttsll--caveea\\txtdofimplaurnc:{\"selagpodineadammafoloooems/monphal_unprtuclrse_ho\"}ul20n-icckda\"i\"r;\\},t\\misammspcr_iot02airknifa\"ue-ow{\\ifna)\\soie00rrpt-4ls:1\"pry_cn+pltprtop25**n\",\\\"m\"egieewoirepttwinu/cshrne,ap0111e.s.uesunohi}\\-2\"2n_}}\"a5-d_e/luevFippbeuilybaUsay0,kss\\ltoat.Coip-s22p\"ovt-ixsc10au-0:0ocefosru-11-Toldigquumffrcog/p_m:\\==r-//.\\viabZ\"-c:frdSt21l\"4--a17\"o_p);va()-b13blivfeeqtc12See\\26udgrcu>\\:2ewnffu.tId2-Re1.ebi//sdde:s:yl5916o/_0/t/e:3.003uph\"r\"kimd76e]0.bo:523mshtg\"_r38n/14ib_s6-pi.1nIs_15rmbu650742[t/Uph\"/\"g\"[gh/a40_u:[_ay\"g_]\"62De/d-5t/30fr48x/19uajeps24brgonn=\\:4ccjs27rgpd.c04-8g-ia\"fTyIDegdsd\\l,duoitBkt\"nr\\wewd";

const RANK = new Map<string, number>();
for (let i = 0; i + 1 < COMMON_PAIRS.length; i += 2) RANK.set(COMMON_PAIRS.slice(i, i + 2), i / 2);

/** Relative cost of stopping on this pair: 0 for pairs outside the common list, up to 400. */
export function pairCost(pair: string): number {
  const rank = RANK.get(pair);
  return rank === undefined ? 0 : 400 - rank;
}
