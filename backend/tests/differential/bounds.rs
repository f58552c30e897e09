//! Error bounds per value: the interpreter's run is followed instruction by instruction
//! (`Interpreter::run_observed`), and every register component carries how far a GPU's value
//! may lawfully be from the interpreter's, derived from the instruction's own operands.
//!
//! A bound is an absolute error. Exactly rounded operations of exact operands give 0 (the
//! GPU's value must then be the same bits, `+0 == -0`, denormals equal to 0); the others add
//! what Vulkan's precision rules allow a driver for that instruction, and propagate their
//! operands' bounds through the instruction's own values (`|a|·eb + |b|·ea` for a product, the
//! interval of a function over `[x - e, x + e]` for rcp/rsq/log/exp, …):
//!
//! - add/sub: half an ulp of the result, which covers a driver that reassociates `(a + b) - a`
//!   into `b` (naga's SPIR-V has no `NoContraction`, so lavapipe's NIR applies its inexact
//!   algebraic rules); of an inexact operand, the two roundings (half an ulp each, [`rounding`]):
//!   the GPU rounds a different exact sum, or a reassociated one (`w + (p - q)` as
//!   `(w + p) - q`, seed 7 program 3573: one ulp of the result apart);
//! - mul: 0 of exact operands, the two roundings of inexact ones, and half an ulp of the
//!   product kept aside for an add that fuses it (`fuse`);
//! - mad, dp#, m#x#, crs: an ulp of each product and of the sum; lrp: the ulps of either
//!   evaluation, `a·(b - c) + c` or lavapipe's `a·b + (1 - a)·c`;
//! - rcp, rsq: 3 ulp (Vulkan: 2.5 and 2); exp: 3 + 2|x| ulp; log: 3 ulp and 2^-21 absolute;
//!   pow as `exp2(b · log2|a|)`; sincos: 2^-11 absolute; texldl: 4/512 (filter weights);
//! - frc, slt, sge, sgn, mova and the comparisons are exact, but an operand whose bound
//!   reaches a step makes the result uncertain by the step (1 for frc/slt/sge, 2 for sgn; an
//!   uncertain `a0`, `p0` or branch is a [`Legal`] difference).
//!
//! Non-finite values are compared by class (+inf, -inf, NaN) except where a driver may
//! legally give something else ([`Legal`]); WGSL lets an implementation assume that no
//! infinities or NaNs occur, and these are the places where that assumption changes the
//! class of a value:
//! - [`Legal::NaN`]: a NaN result of an instruction a driver may rewrite with an identity
//!   that holds for finite values (add, sub, mul, mad, lrp, dp#, m#x#, crs, nrm, dst:
//!   lavapipe folds `x - x` to 0 also for x = NaN or inf, `(a + b) - a` to b, and may fold
//!   `0 · x` to 0 or `lrp` into `a·b + (1-a)·c`), or a NaN made from operands that are not
//!   NaN (`frc`/`sincos` of inf, `0 · inf` in `pow`);
//! - [`Legal::MinMaxOfNaN`]: `min`/`max` with a NaN operand (the GPU's `min` may return
//!   either operand; D3D9's is a comparison);
//! - [`Legal::CompareNaN`]: a comparison with a NaN operand (`slt`, `sge`, `sgn`, `setp`,
//!   `ifc`, `breakc`, `lit`'s tests): an ordered comparison may be folded by the same
//!   assumption;
//! - [`Legal::AddressOfNonFinite`]: `mova` of inf or NaN (WGSL's float-to-int conversion of
//!   them is implementation-defined);
//! - [`Legal::UncertainAddress`], [`Legal::UncertainCondition`], [`Legal::Unbounded`]: an
//!   inexact operand within its bound of a rounding boundary, of the other side of a
//!   comparison, or of a pole (rcp of a value whose bound covers 0): both answers are right;
//! - [`Legal::Diverged`]: after a branch, break or call whose direction is one of the above,
//!   every output (the two executions took different paths).
//!
//! Every other value is checked: a value with a [`Legal`] reason reaches the outputs only
//! through the instructions that read it, and `_sat` (and the pre-3.0 colour clamp) turns it
//! back into a bounded one (any value in [0, 1]).

use std::collections::HashMap;

use d3d9_translator::bytecode::{Opcode, RegisterFile, SrcParam, Version};
use d3d9_translator::interp::Step;
use d3d9_translator::lift::FloatMode;
use d3d9_translator::rules;

/// Why any GPU value is accepted for a component (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Legal {
    NaN,
    MinMaxOfNaN,
    CompareNaN,
    AddressOfNonFinite,
    UncertainAddress,
    UncertainCondition,
    Unbounded,
    Diverged,
}

/// How far the GPU's value of one component may be from the interpreter's.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Bound {
    /// Absolute error bound (0: the same value).
    pub error: f64,
    /// Half an ulp of a product an add may fuse into a multiply-add (not part of the value's
    /// own error: the product itself is correctly rounded).
    pub fuse: f64,
    /// Any value is accepted, for this reason.
    pub free: Option<Legal>,
}

impl Bound {
    const EXACT: Bound = Bound {
        error: 0.0,
        fuse: 0.0,
        free: None,
    };

    fn free(reason: Legal) -> Bound {
        Bound {
            free: Some(reason),
            ..Bound::EXACT
        }
    }

    fn error(error: f64) -> Bound {
        if error.is_finite() {
            Bound {
                error,
                ..Bound::EXACT
            }
        } else {
            Bound::free(Legal::Unbounded)
        }
    }

    /// `_sat` (or the pre-3.0 colour clamp): 1-Lipschitz, and every value ends in [0, 1].
    fn saturated(self) -> Bound {
        saturated(self)
    }
}

/// `bound` after `_sat` or the pre-3.0 colour clamp: 1-Lipschitz, and every value ends in
/// [0, 1] (a path that may not have written the value at all stays free).
pub fn saturated(bound: Bound) -> Bound {
    match bound.free {
        Some(Legal::Diverged) => bound,
        Some(_) => Bound::error(1.0),
        None => Bound::error(bound.error.min(1.0)),
    }
}

/// One ulp of an f32 of magnitude `x` (the denormal step below the normal range).
pub fn ulp(x: f64) -> f64 {
    let a = x.abs().min(f64::from(f32::MAX));
    if a.is_nan() {
        return f64::INFINITY;
    }
    if a < f64::from(f32::MIN_POSITIVE) {
        return f64::from(f32::MIN_POSITIVE) * 2f64.powi(-23);
    }
    2f64.powi(a.log2().floor() as i32 - 23)
}

/// How far apart two correctly rounded results may be when the exact values they round are
/// within `e` of each other, beyond `e` itself: each rounds by half an ulp of its own binade
/// (`result` is the interpreter's; the GPU's may be one binade up). 0 when `e` is 0 (the
/// same value rounds the same).
fn rounding(result: f64, e: f64) -> f64 {
    if e == 0.0 {
        0.0
    } else {
        (ulp(result) + ulp(result.abs() + e)) / 2.0
    }
}

/// `m · e` where an exact operand (e = 0) contributes nothing, even beside an infinite one.
fn scaled(m: f64, e: f64) -> f64 {
    if e == 0.0 {
        0.0
    } else {
        m.abs() * e
    }
}

/// Whether two components agree under `bound`.
pub fn agree(cpu: f32, gpu: f32, bound: &Bound) -> bool {
    if bound.free.is_some() {
        return true;
    }
    let tiny = |x: f32| x.abs() < f32::MIN_POSITIVE;
    if cpu.to_bits() == gpu.to_bits() || cpu == gpu || (cpu.is_nan() && gpu.is_nan()) {
        return true;
    }
    if tiny(cpu) && tiny(gpu) {
        return true;
    }
    if cpu.is_nan() || gpu.is_nan() {
        return false;
    }
    let e = bound.error;
    if cpu.is_infinite() || gpu.is_infinite() {
        // An inexact value near the top of the range may overflow on one side only.
        let finite = if cpu.is_infinite() { gpu } else { cpu };
        return e > 0.0
            && cpu.is_sign_negative() == gpu.is_sign_negative()
            && f64::from(finite.abs()) + e >= f64::from(f32::MAX);
    }
    (f64::from(cpu) - f64::from(gpu)).abs() <= e
}

/// The bounds of every register component, updated by each executed instruction.
pub struct Tracker {
    mode: FloatMode,
    version: Version,
    /// Float registers written so far (temporaries and outputs), by file and index.
    registers: HashMap<(RegisterFile, u32), [Bound; 4]>,
    /// `a0` components whose integer the GPU may compute differently.
    address: [Option<Legal>; 4],
    /// `p0` components the GPU may set differently.
    predicate: [Option<Legal>; 4],
    /// The first uncertain branch, break or call.
    pub diverged: Option<Legal>,
}

/// The components of the reads that make component `k` of `opcode`'s result: (read, component).
fn contributors(opcode: Opcode, k: usize, reads: usize, vs_1_1: bool) -> Vec<(usize, usize)> {
    use Opcode as O;
    match opcode {
        O::Dp3 => (0..3).flat_map(|c| [(0, c), (1, c)]).collect(),
        O::Dp4 => (0..4).flat_map(|c| [(0, c), (1, c)]).collect(),
        O::M4x4 | O::M4x3 | O::M3x4 | O::M3x3 | O::M3x2 => {
            let n = if matches!(opcode, O::M4x4 | O::M4x3) {
                4
            } else {
                3
            };
            (0..n).flat_map(|c| [(0, c), (1 + k, c)]).collect()
        }
        O::Rcp | O::Rsq | O::Log | O::Logp | O::Exp | O::SinCos => vec![(0, 3)],
        O::Expp if !vs_1_1 => vec![(0, 3)],
        O::Expp => vec![(0, 3)],
        O::Pow => vec![(0, 3), (1, 3)],
        O::Lit => vec![(0, 0), (0, 1), (0, 3)],
        O::Dst => match k {
            1 => vec![(0, 1), (1, 1)],
            2 => vec![(0, 2)],
            3 => vec![(1, 3)],
            _ => vec![],
        },
        O::Crs => {
            let (i, j) = [(1, 2), (2, 0), (0, 1), (0, 0)][k];
            vec![(0, i), (1, j), (0, j), (1, i)]
        }
        O::Nrm => (0..3).map(|c| (0, c)).chain([(0, k)]).collect(),
        O::TexLdl => (0..4).map(|c| (0, c)).collect(),
        _ => (0..reads).map(|r| (r, k)).collect(),
    }
}

/// The instructions a driver may rewrite with identities that hold only for finite values
/// (`x - x = 0`, `(a + b) - a = b`, `0 · x = 0`, `lrp(1, b, c) = b`, `a × a = 0`).
fn folds(opcode: Opcode) -> bool {
    use Opcode as O;
    matches!(
        opcode,
        O::Add
            | O::Sub
            | O::Mul
            | O::Mad
            | O::Lrp
            | O::Dp3
            | O::Dp4
            | O::M4x4
            | O::M4x3
            | O::M3x4
            | O::M3x3
            | O::M3x2
            | O::Crs
            | O::Nrm
            | O::Dst
    )
}

impl Tracker {
    pub fn new(mode: FloatMode, version: Version) -> Tracker {
        Tracker {
            mode,
            version,
            registers: HashMap::new(),
            address: [None; 4],
            predicate: [None; 4],
            diverged: None,
        }
    }

    /// The bound of component `c` of register `file` `index` as the run left it (`_sat` of
    /// pre-3.0 colours applied by the caller).
    pub fn bound(&self, file: RegisterFile, index: u32, c: usize) -> Bound {
        if let Some(reason) = self.diverged {
            return Bound::free(reason);
        }
        self.registers
            .get(&(file, index))
            .map_or(Bound::EXACT, |b| b[c])
    }

    /// The bounds of a source operand's four components after its swizzle.
    fn operand(&self, p: &SrcParam) -> [Bound; 4] {
        if let Some(rel) = p.reg.relative {
            if rel.file == RegisterFile::Addr {
                if let Some(reason) = self.address[usize::from(rel.component())] {
                    return [Bound::free(reason); 4];
                }
            }
        }
        let base = match p.reg.file {
            RegisterFile::Temp => self
                .registers
                .get(&(RegisterFile::Temp, p.reg.index))
                .copied()
                .unwrap_or([Bound::EXACT; 4]),
            _ => [Bound::EXACT; 4],
        };
        [0, 1, 2, 3].map(|c| base[usize::from(p.swizzle.get(c))])
    }

    /// Whether `a OP b` may come out the other way on the GPU.
    fn uncertain_comparison(a: f32, ea: &Bound, b: f32, eb: &Bound) -> Option<Legal> {
        if let Some(reason) = ea.free.or(eb.free) {
            return Some(reason);
        }
        if a.is_nan() || b.is_nan() {
            return Some(Legal::CompareNaN);
        }
        let e = ea.error + eb.error + ea.fuse + eb.fuse;
        (e > 0.0 && (f64::from(a) - f64::from(b)).abs() <= e).then_some(Legal::UncertainCondition)
    }

    /// Follow one executed instruction.
    pub fn step(&mut self, step: &Step<'_>) {
        use Opcode as O;
        let inst = step.instruction;
        let operands: Vec<([f32; 4], [Bound; 4])> = step
            .reads
            .iter()
            .map(|(p, v)| (*v, self.operand(p)))
            .collect();
        match inst.opcode {
            O::If | O::CallNz | O::Breakp => {
                let at = usize::from(inst.opcode == O::CallNz);
                if let Some(p) = inst.src.get(at) {
                    if p.reg.file == RegisterFile::Predicate {
                        if let Some(reason) = self.predicate[usize::from(p.swizzle.get(0))] {
                            self.diverged.get_or_insert(reason);
                        }
                    }
                }
                return;
            }
            O::Ifc | O::Breakc => {
                if let [(a, ea), (b, eb)] = &operands[..] {
                    if let Some(reason) = Self::uncertain_comparison(a[0], &ea[0], b[0], &eb[0]) {
                        self.diverged.get_or_insert(reason);
                    }
                }
                return;
            }
            _ => {}
        }
        let (Some(written), Some(dst)) = (step.write, inst.dst) else {
            return;
        };
        // Components whose write depends on an uncertain predicate.
        let predicated: [Option<Legal>; 4] = match inst.predicate {
            Some(p) => [0, 1, 2, 3].map(|c| self.predicate[usize::from(p.swizzle.get(c))]),
            None => [None; 4],
        };
        match dst.reg.file {
            RegisterFile::Addr => {
                let vs_1_1 = self.version.major < 2;
                for (c, pred) in predicated.iter().enumerate() {
                    if !written.mask[c] {
                        continue;
                    }
                    let (x, b) = (operands[0].0[c], operands[0].1[c]);
                    self.address[c] = if let Some(reason) = b.free.or(*pred) {
                        Some(reason)
                    } else if !x.is_finite() {
                        Some(Legal::AddressOfNonFinite)
                    } else {
                        let e = (b.error + b.fuse) as f32;
                        let value = |y: f32| rules::address_value(y, vs_1_1);
                        (e > 0.0 && value(x - e) != value(x + e)).then_some(Legal::UncertainAddress)
                    };
                }
                return;
            }
            RegisterFile::Predicate => {
                for (c, pred) in predicated.iter().enumerate() {
                    if written.mask[c] {
                        let (a, ea) = (operands[0].0[c], operands[0].1[c]);
                        let (b, eb) = (operands[1].0[c], operands[1].1[c]);
                        self.predicate[c] =
                            pred.or_else(|| Self::uncertain_comparison(a, &ea, b, &eb));
                    }
                }
                return;
            }
            _ => {}
        }
        let vs_1_1 = self.version.major < 2;
        let mut bounds = self.result_bounds(inst.opcode, &operands, &written.computed);
        for (k, b) in bounds.iter_mut().enumerate() {
            let inputs = contributors(inst.opcode, k, operands.len(), vs_1_1);
            let value = |(r, c): (usize, usize)| operands.get(r).map(|o| (o.0[c], o.1[c]));
            let contributing: Vec<(f32, Bound)> = inputs.iter().filter_map(|&i| value(i)).collect();
            if let Some(reason) = contributing.iter().find_map(|(_, b)| b.free) {
                *b = Bound::free(reason);
            } else if written.computed[k].is_nan()
                && (folds(inst.opcode) || !contributing.iter().any(|(x, _)| x.is_nan()))
            {
                *b = Bound::free(Legal::NaN);
            }
            if b.error > 0.0 && b.free.is_none() {
                // A denormal result may be flushed on one side only.
                b.error += f64::from(f32::MIN_POSITIVE);
            }
            if dst.modifier.saturate() {
                *b = b.saturated();
            }
            if let Some(reason) = predicated[k] {
                *b = Bound::free(reason);
            }
        }
        let index = match dst.reg.relative {
            Some(rel) if rel.file == RegisterFile::Loop => {
                i64::from(dst.reg.index) + i64::from(step.loop_counter)
            }
            _ => i64::from(dst.reg.index),
        };
        let Ok(index) = u32::try_from(index) else {
            return;
        };
        let slot = self
            .registers
            .entry((dst.reg.file, index))
            .or_insert([Bound::EXACT; 4]);
        for c in 0..4 {
            if written.mask[c] {
                slot[c] = bounds[c];
            }
        }
    }

    /// The bounds of the four components an instruction computes (before `_sat`), from its
    /// operands' values and bounds and its own values.
    fn result_bounds(
        &self,
        opcode: Opcode,
        ops: &[([f32; 4], [Bound; 4])],
        computed: &[f32; 4],
    ) -> [Bound; 4] {
        use Opcode as O;
        let strict = rules::strict_multiplies(self.mode);
        let legacy = rules::legacy_results(self.mode);
        let v = |r: usize, c: usize| f64::from(ops[r].0[c]);
        let e = |r: usize, c: usize| ops[r].1[c].error;
        let f = |r: usize, c: usize| ops[r].1[c].fuse;
        let r = |k: usize| f64::from(computed[k]);
        // The error of the product of components (ra, ca) and (rb, cb), before rounding.
        let product = |(ra, ca): (usize, usize), (rb, cb): (usize, usize)| -> f64 {
            if strict
                && ((v(ra, ca) == 0.0 && e(ra, ca) == 0.0)
                    || (v(rb, cb) == 0.0 && e(rb, cb) == 0.0))
            {
                return 0.0;
            }
            scaled(v(ra, ca), e(rb, cb) + f(rb, cb))
                + scaled(v(rb, cb), e(ra, ca) + f(ra, ca))
                + (e(ra, ca) + f(ra, ca)) * (e(rb, cb) + f(rb, cb))
        };
        let each = |g: &dyn Fn(usize) -> Bound| [0, 1, 2, 3].map(g);
        // A monotonic function's spread over [x - ex, x + ex].
        let spread = |g: &dyn Fn(f64) -> f64, x: f64, ex: f64| -> f64 {
            if ex == 0.0 {
                0.0
            } else {
                (g(x + ex) - g(x)).abs().max((g(x - ex) - g(x)).abs())
            }
        };
        match opcode {
            O::Mov | O::Abs => each(&|k| ops[0].1[k]),
            O::Add | O::Sub => each(&|k| {
                let propagated = e(0, k) + e(1, k) + f(0, k) + f(1, k);
                Bound::error(propagated + rounding(r(k), propagated).max(ulp(r(k)) / 2.0))
            }),
            O::Mul => each(&|k| {
                let propagated = product((0, k), (1, k));
                Bound {
                    fuse: if strict && (v(0, k) == 0.0 || v(1, k) == 0.0) {
                        0.0
                    } else {
                        ulp(r(k)) / 2.0
                    },
                    ..Bound::error(propagated + rounding(r(k), propagated))
                }
            }),
            O::Mad => each(&|k| {
                let p = v(0, k) * v(1, k);
                Bound::error(product((0, k), (1, k)) + e(2, k) + f(2, k) + ulp(p) + ulp(r(k)))
            }),
            O::Lrp => each(&|k| {
                let (a, b, c) = (v(0, k), v(1, k), v(2, k));
                let propagated = scaled(b - c, e(0, k) + f(0, k))
                    + scaled(a, e(1, k) + f(1, k) + e(2, k) + f(2, k))
                    + (e(0, k) + f(0, k)) * (e(1, k) + e(2, k))
                    + e(2, k)
                    + f(2, k);
                let rounding = 2.0
                    * (ulp(a * b)
                        + ulp(a * c)
                        + ulp(c)
                        + ulp(b - c) * a.abs()
                        + ulp(r(k))
                        + ulp(c) * (1.0 + a.abs()));
                Bound::error(propagated + rounding)
            }),
            O::Dp3 | O::Dp4 => {
                let n = if opcode == O::Dp3 { 3 } else { 4 };
                let propagated: f64 = (0..n).map(|c| product((0, c), (1, c))).sum();
                let magnitude: f64 = (0..n).map(|c| (v(0, c) * v(1, c)).abs()).sum();
                [Bound::error(propagated + (n as f64 + 1.0) * ulp(magnitude)); 4]
            }
            O::M4x4 | O::M4x3 | O::M3x4 | O::M3x3 | O::M3x2 => {
                let n = if matches!(opcode, O::M4x4 | O::M4x3) {
                    4
                } else {
                    3
                };
                each(&|k| {
                    if 1 + k >= ops.len() {
                        return Bound::EXACT;
                    }
                    let propagated: f64 = (0..n).map(|c| product((0, c), (1 + k, c))).sum();
                    let magnitude: f64 = (0..n).map(|c| (v(0, c) * v(1 + k, c)).abs()).sum();
                    Bound::error(propagated + (n as f64 + 1.0) * ulp(magnitude))
                })
            }
            O::Min | O::Max => each(&|k| {
                if ops[0].0[k].is_nan() || ops[1].0[k].is_nan() {
                    Bound::free(Legal::MinMaxOfNaN)
                } else {
                    Bound::error((e(0, k) + f(0, k)).max(e(1, k) + f(1, k)))
                }
            }),
            O::Slt | O::Sge => each(&|k| match Self::uncertain_comparison(
                ops[0].0[k],
                &ops[0].1[k],
                ops[1].0[k],
                &ops[1].1[k],
            ) {
                Some(Legal::UncertainCondition) => Bound::error(1.0),
                Some(reason) => Bound::free(reason),
                None => Bound::EXACT,
            }),
            O::Sgn => each(&|k| {
                let (x, ex) = (v(0, k), e(0, k) + f(0, k));
                if x.is_nan() {
                    Bound::free(Legal::CompareNaN)
                } else if ex > 0.0 && x.abs() <= ex {
                    Bound::error(2.0)
                } else {
                    Bound::EXACT
                }
            }),
            O::Frc => each(&|k| {
                let (x, ex) = (v(0, k), e(0, k) + f(0, k));
                let wrap = ex > 0.0 && (x - ex).floor() != (x + ex).floor();
                // A GPU's fract may stop below 1 where x - floor(x) rounds to 1.
                let top = if r(k) == 1.0 { ulp(1.0) } else { 0.0 };
                Bound::error(if wrap { 1.0 } else { ex + top })
            }),
            O::Rcp | O::Rsq => {
                let (x, ex) = (v(0, 3), e(0, 3) + f(0, 3));
                let g = |y: f64| {
                    if opcode == O::Rcp {
                        1.0 / y
                    } else {
                        1.0 / y.abs().sqrt()
                    }
                };
                let bound = if x == 0.0 && ex == 0.0 {
                    // D3D9's FLT_MAX (legacy) or inf: the same on both.
                    Bound::EXACT
                } else if ex >= x.abs() / 2.0 {
                    Bound::free(Legal::Unbounded)
                } else {
                    Bound::error(spread(&g, x, ex) + 3.0 * ulp(r(0)))
                };
                [bound; 4]
            }
            O::Log | O::Logp => {
                let (x, ex) = (v(0, 3), e(0, 3) + f(0, 3));
                let bound = if x == 0.0 && ex == 0.0 {
                    Bound::EXACT
                } else if ex >= x.abs() / 2.0 {
                    Bound::free(Legal::Unbounded)
                } else {
                    let g = |y: f64| y.abs().log2();
                    Bound::error(spread(&g, x, ex) + 3.0 * ulp(r(0)) + 2f64.powi(-21))
                };
                [bound; 4]
            }
            O::Exp | O::Expp => {
                let (x, ex) = (v(0, 3), e(0, 3) + f(0, 3));
                let exp = |y: f64| {
                    let g = |z: f64| z.exp2();
                    spread(&g, y, ex) + (3.0 + 2.0 * y.abs().min(1e6)) * ulp(y.exp2())
                };
                if opcode == O::Expp && self.version.major < 2 {
                    // vs_1_1: (2^floor(x), x - floor(x), 2^x, 1).
                    let fl = x.floor();
                    let wrap = ex > 0.0 && (x - ex).floor() != (x + ex).floor();
                    [
                        if wrap {
                            Bound::free(Legal::UncertainAddress)
                        } else {
                            Bound::error(exp(fl))
                        },
                        Bound::error(if wrap { 1.0 } else { ex }),
                        Bound::error(exp(x)),
                        Bound::EXACT,
                    ]
                } else {
                    [Bound::error(exp(x)); 4]
                }
            }
            O::Pow => {
                [self.pow_bound(
                    v(0, 3),
                    e(0, 3) + f(0, 3),
                    v(1, 3),
                    e(1, 3) + f(1, 3),
                    r(0),
                    legacy,
                ); 4]
            }
            O::Lit => {
                let (x, y, w) = (v(0, 0), v(0, 1), v(0, 3));
                let (ex, ey, ew) = (e(0, 0) + f(0, 0), e(0, 1) + f(0, 1), e(0, 3) + f(0, 3));
                if x.is_nan() || y.is_nan() {
                    let nan = Bound::free(Legal::CompareNaN);
                    return [Bound::EXACT, nan, nan, Bound::EXACT];
                }
                let limit = f64::from(rules::LIT_POWER_LIMIT);
                let z = if w.is_nan() {
                    // The power's clamp is a min and a max.
                    Bound::free(Legal::MinMaxOfNaN)
                } else if (ex > 0.0 && x.abs() <= ex) || (ey > 0.0 && y.abs() <= ey) {
                    // The test `x > 0 && y > 0` may go either way.
                    Bound::free(Legal::UncertainCondition)
                } else if x > 0.0 && y > 0.0 {
                    let ew = if w.abs() < limit { ew } else { 0.0 };
                    self.pow_bound(y, ey, w.clamp(-limit, limit), ew, r(2), legacy)
                } else {
                    Bound::EXACT
                };
                [Bound::EXACT, Bound::error(ex), z, Bound::EXACT]
            }
            O::Dst => [
                Bound::EXACT,
                Bound {
                    fuse: ulp(r(1)) / 2.0,
                    ..Bound::error(
                        product((0, 1), (1, 1)) + rounding(r(1), product((0, 1), (1, 1))),
                    )
                },
                ops[0].1[2],
                ops[1].1[3],
            ],
            O::Crs => each(&|k| {
                if k == 3 {
                    return Bound::EXACT;
                }
                let (i, j) = [(1, 2), (2, 0), (0, 1)][k];
                let p1 = v(0, i) * v(1, j);
                let p2 = v(0, j) * v(1, i);
                Bound::error(
                    product((0, i), (1, j))
                        + product((0, j), (1, i))
                        + ulp(p1)
                        + ulp(p2)
                        + ulp(r(k)),
                )
            }),
            O::Nrm => {
                let d: f64 = (0..3).map(|c| v(0, c) * v(0, c)).sum();
                let ed: f64 = (0..3).map(|c| product((0, c), (0, c))).sum::<f64>() + 4.0 * ulp(d);
                if d == 0.0 && ed == 0.0 {
                    // rsq(0): FLT_MAX (legacy) or inf on both; the results follow the rules.
                    return each(&|k| Bound::error(scaled(f64::from(f32::MAX), e(0, k))));
                }
                if ed >= d / 2.0 {
                    return [Bound::free(Legal::Unbounded); 4];
                }
                let q = 1.0 / d.sqrt();
                let eq = (1.0 / (d - ed).sqrt() - q).abs() + 3.0 * ulp(q);
                each(&|k| {
                    Bound::error(
                        scaled(v(0, k), eq) + scaled(q, e(0, k) + f(0, k)) + ulp(r(k)) * 2.0,
                    )
                })
            }
            O::SinCos => {
                let (x, ex) = (v(0, 3), e(0, 3) + f(0, 3));
                let reach = if x.abs() <= std::f64::consts::PI + 1e-3 {
                    2f64.powi(-11)
                } else {
                    2f64.powi(-11) * (1.0 + x.abs())
                };
                [Bound::error(ex + reach); 4]
            }
            O::TexLdl => {
                let exact = (0..4).all(|c| e(0, c) == 0.0 && f(0, c) == 0.0);
                [Bound::error(if exact { 4.0 / 512.0 } else { 1.0 }); 4]
            }
            _ => [Bound::free(Legal::Unbounded); 4],
        }
    }

    /// `pow(a, b)` as `exp2(b · log2|a|)` with the legacy zero rule.
    fn pow_bound(&self, a: f64, ea: f64, b: f64, eb: f64, result: f64, legacy: bool) -> Bound {
        if ea == 0.0 && eb == 0.0 {
            let l = if a == 0.0 {
                f64::from(rules::LOG_OF_ZERO)
            } else {
                a.abs().log2()
            };
            if (legacy && (b == 0.0 || l == 0.0)) || a == 0.0 {
                return Bound::EXACT;
            }
            let y = b * l;
            if !y.is_finite() {
                return Bound::EXACT;
            }
            // log2 within 3 ulp and 2^-21, times |b|, then exp2 within 3 + 2|y| ulp.
            let ey = b.abs() * (3.0 * ulp(l) + 2f64.powi(-21)) + ulp(y);
            return Bound::error(
                result.abs() * (ey.exp2() - 1.0) + (3.0 + 2.0 * y.abs().min(1e6)) * ulp(result),
            );
        }
        if ea >= a.abs() / 2.0 {
            return Bound::free(Legal::Unbounded);
        }
        let l = a.abs().log2();
        let el = ((a.abs() - ea).log2() - l).abs() + 3.0 * ulp(l) + 2f64.powi(-21);
        let y = b * l;
        let ey = scaled(b, el) + scaled(l, eb) + el * eb + ulp(y);
        Bound::error(
            result.abs() * (ey.exp2() - 1.0) + (3.0 + 2.0 * y.abs().min(1e6)) * ulp(result),
        )
    }
}
