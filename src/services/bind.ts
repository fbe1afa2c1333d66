// How a service module turns its use-case functions (each taking the database, or the log store,
// as its first argument, so that services can compose them inside one transaction) into the
// methods of its service object: the first argument is bound once, by the composition root
// (createServices in services/index.ts, called by src/root/open.ts), and callers pass plain
// arguments only.

type UseCase<E> = (first: E, ...rest: never[]) => unknown;

/** `fn(first, …rest)` seen from the caller: `(…rest)`. */
export type Bound<E, F> = F extends (first: E, ...rest: infer A) => infer R ? (...rest: A) => R : never;

export type BoundAll<E, T> = { readonly [K in keyof T]: Bound<E, T[K]> };

/** Binds `first` as the first argument of every function of `fns` (same names, same results). */
export function bindFirst<E, T extends Record<string, UseCase<E>>>(first: E, fns: T): BoundAll<E, T> {
  const bound: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(fns)) bound[name] = (...rest: unknown[]) => (fn as (first: E, ...rest: unknown[]) => unknown)(first, ...rest);
  return bound as BoundAll<E, T>;
}
