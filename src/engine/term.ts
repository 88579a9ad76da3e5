/**
 * A term as Tau-Prolog represents it, opaque outside src/engine/. Its own module so that own.ts,
 * which tau.ts loads, can name it without importing tau.ts.
 */

/** A term as Tau-Prolog represents it (opaque outside the engine). */
export type TauTerm = { readonly __tau: unique symbol };
