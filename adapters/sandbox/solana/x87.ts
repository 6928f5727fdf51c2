// Why this exists: LiteSVM's sBPF JIT (x86-64) passes every register-indirect call (CALLX: the
// associated token account program makes them in every sandbox payment and funding) through the
// legacy MM0 register and never runs EMMS
// (anza-xyz/sbpf#197, fixed upstream by anza-xyz/sbpf#200; litesvm 0.8 predates it, and litesvm
// 1.x is a different API). Touching MMX tags all eight x87 registers full, and V8 on x64 computes
// `%` on non-integers, on -0 and past 2^31 with x87 `fprem`: the first such `%` after a program ran
// answered NaN. pg formats a Date's UTC offset as `-0 % 60`, so the service wrote
// "2026-…+00:NaN" and answered 500. Nothing in JavaScript can run EMMS, but one x87 remainder
// pops the two registers it overflowed into, which is all V8's `fprem` needs from then on.

/** Two operands V8 cannot fold into a constant (they change on every call); both give 1.5. */
let dividend = 7.5;
const DIVISOR = 2;
const ATTEMPTS = 4;

/**
 * Frees the x87 registers a Solana program's JIT left marked full, so JavaScript's floating-point
 * remainders answer correctly again. Call it right after every LiteSVM call that runs a program,
 * before any other JavaScript runs. Throws when the FPU stays unusable: better a failed sandbox
 * call than NaN flowing into timestamps and amounts.
 */
export function releaseX87Registers(): void {
  for (let i = 0; i < ATTEMPTS; i++) {
    dividend = dividend === 7.5 ? 9.5 : 7.5;
    if (dividend % DIVISOR === 1.5) return;
  }
  throw new Error('the x87 FPU stays unusable after a Solana program ran: floating-point remainders answer NaN');
}

/** Runs `fn` (a LiteSVM call that executes programs), then releases the x87 registers it left full. */
export function afterPrograms<T>(fn: () => T): T {
  try {
    return fn();
  } finally {
    releaseX87Registers();
  }
}
