// A one-line progress bar on standard error, drawn only when stderr is a terminal (a pipe or a
// CI log gets nothing, so stdout/stderr stay clean for machines). Redrawn at most every 100 ms.
export interface Progress {
  tick(label: string): void;
  done(): void;
}

const WIDTH = 30;

export function createProgress(total: number, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!stream.isTTY || total < 2) return { tick() {}, done() {} };
  let count = 0;
  let last = 0;
  const started = Date.now();
  const draw = (label: string) => {
    const filled = Math.round((count / total) * WIDTH);
    const elapsed = (Date.now() - started) / 1000;
    const eta = count > 0 && count < total ? ` ~${Math.ceil((elapsed / count) * (total - count))} s left` : '';
    const room = Math.max(10, (stream.columns ?? 80) - WIDTH - 30 - eta.length);
    const name = label.length > room ? `…${label.slice(-(room - 1))}` : label;
    stream.write(`\r\u001b[2K[${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${count}/${total}${eta} ${name}`);
  };
  draw('');
  return {
    tick(label) {
      count++;
      const now = Date.now();
      if (now - last < 100 && count < total) return;
      last = now;
      draw(label);
    },
    done() {
      stream.write('\r\u001b[2K');
    },
  };
}
