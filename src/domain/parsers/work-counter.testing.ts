// A clock-free measure of how much work code does, for "stays linear" tests: while `run` runs,
// every Map/Set operation counts 1, every array push 1, every array method that may scan
// (indexOf, find, map …) counts the array's length, and splice/slice count the elements they
// move or copy. Comparing the work for n and
// for k·n inputs shows linear vs quadratic growth without timing anything (wall-clock limits fail
// under load and pass on fast machines whatever the complexity).
type Proto = Record<string, (...args: unknown[]) => unknown>;

const SCANS = ['indexOf', 'lastIndexOf', 'includes', 'find', 'findIndex', 'findLast', 'findLastIndex', 'filter', 'map', 'some', 'every', 'forEach', 'reduce', 'join', 'concat', 'flat', 'flatMap', 'sort', 'shift', 'unshift'];

/** A relative index as the array methods read it. */
function at(index: unknown, length: number, fallback: number): number {
  const n = index === undefined ? fallback : Math.trunc(Number(index)) || 0;
  return n < 0 ? Math.max(0, length + n) : Math.min(n, length);
}

export function countWork(run: () => void): number {
  let work = 0;
  const restore: (() => void)[] = [];
  const wrap = (proto: object, name: string, cost: (self: unknown, args: unknown[]) => number) => {
    const p = proto as Proto;
    const original = p[name];
    restore.push(() => {
      p[name] = original;
    });
    p[name] = function (this: unknown, ...args: unknown[]) {
      work += cost(this, args);
      return original.apply(this, args);
    };
  };
  for (const name of ['get', 'has', 'set', 'delete']) wrap(Map.prototype, name, () => 1);
  for (const name of ['add', 'has', 'delete']) wrap(Set.prototype, name, () => 1);
  for (const name of SCANS) wrap(Array.prototype, name, (self) => (self as unknown[]).length);
  wrap(Array.prototype, 'push', () => 1);
  // splice moves everything after `start`; slice copies `start..end`.
  wrap(Array.prototype, 'splice', (self, args) => {
    const length = (self as unknown[]).length;
    return Math.max(1, length - at(args[0], length, 0) + Math.max(0, args.length - 2));
  });
  wrap(Array.prototype, 'slice', (self, args) => {
    const length = (self as unknown[]).length;
    return Math.max(1, at(args[1], length, length) - at(args[0], length, 0));
  });
  try {
    run();
  } finally {
    for (const r of restore.reverse()) r();
  }
  return work;
}
