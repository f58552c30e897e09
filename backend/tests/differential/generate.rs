//! Random valid vertex shaders (vs_2_0, vs_2_x, vs_3_0) as assembly text, with the classes of
//! their outputs: which output components are computed exactly the same way on every
//! executor (compared bit for bit), and which pass through operations a GPU may evaluate
//! differently within its precision rules (fused multiply-add, transcendental functions:
//! compared within a tolerance).
//!
//! To keep the comparison meaningful, the generator feeds operations that are discontinuous
//! or amplify small differences (rcp, rsq, log, pow, exp, lit, frc, slt, sge, sgn, setp,
//! ifc, breakc, mova) only from exact values; inside loops and subroutines, where a register's
//! class may change between iterations, only from constants and inputs.

/// splitmix64: a small, seedable generator (no dependency needed).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// A float for inputs and constants: mostly moderate values, sometimes the special values
    /// D3D9 content meets (±0, ±1, ±inf, NaN, denormals, huge and tiny values).
    pub fn value(&mut self, special: bool) -> f32 {
        if special && self.chance(25) {
            return *self.pick(&[
                0.0,
                -0.0,
                1.0,
                -1.0,
                0.5,
                f32::INFINITY,
                f32::NEG_INFINITY,
                f32::NAN,
                1e-40,
                -3e-39,
                1e30,
                -1e30,
                1e-30,
                2.5,
                -1.5,
            ]);
        }
        let x = (self.next() >> 40) as f32 / (1u64 << 24) as f32; // [0, 1)
        let scale = *self.pick(&[1.0, 4.0, 16.0, 100.0]);
        let v = (x * 2.0 - 1.0) * scale;
        // Sometimes a value with few significant bits (exact sums and products).
        if self.chance(30) {
            (v * 4.0).round() / 4.0
        } else {
            v
        }
    }
}

/// How a value was computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Class {
    /// Exactly rounded operations only: the same bits everywhere.
    Exact,
    /// An exact product that a following add may fuse into a multiply-add.
    Product,
    /// Within precision rules (fused, transcendental): compared with a tolerance.
    Inexact,
}

/// The registers a version offers the generator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Profile {
    Vs20,
    Vs2x,
    Vs30,
}

impl Profile {
    pub fn name(self) -> &'static str {
        match self {
            Profile::Vs20 => "vs_2_0",
            Profile::Vs2x => "vs_2_x",
            Profile::Vs30 => "vs_3_0",
        }
    }
    fn dynamic(self) -> bool {
        self != Profile::Vs20
    }
}

/// Temporaries the body uses (r6/r7 are sgn's scratch registers, r8 the sincos argument).
const TEMPS: usize = 6;
/// Output texture coordinates o1..o4 (vs_3_0) or oT0..oT3.
pub const OUTPUTS: usize = 4;
/// Vertex inputs v0..v3 (TEXCOORD0..3).
pub const INPUTS: usize = 4;
/// Application float constants c0..c31 are random; c32..c47 small indices for mova;
/// c48 = (2π, -π, 0, 0) for sincos arguments; c49/c50 the vs_2_0 sincos constants;
/// c60 = the position.
pub const RANDOM_CONSTANTS: usize = 32;
pub const INDEX_CONSTANTS: std::ops::Range<usize> = 32..48;
pub const POSITION_CONSTANT: usize = 60;

/// A generated program.
pub struct Program {
    pub profile: Profile,
    pub text: String,
    /// The class of each output's components: `classes[o][c]`.
    pub classes: [[Class; 4]; OUTPUTS],
    /// Integer constants i0..i3 (loop counts, starts, steps) and booleans b0..b3.
    pub ints: [[i32; 4]; 4],
    pub bools: [bool; 4],
}

struct Gen<'r> {
    rng: &'r mut Rng,
    profile: Profile,
    lines: Vec<String>,
    temps: [[Class; 4]; TEMPS],
    outs: [[Class; 4]; OUTPUTS],
    /// Inside a loop or subroutine body: discontinuous ops read only constants and inputs.
    restricted: bool,
    depth: usize,
    /// Registers written since the innermost loop or subroutine started (made Inexact after).
    written_in_body: Vec<(bool, usize)>,
    predicate_set: bool,
    a0_set: bool,
    /// The v# register the current instruction reads (one per instruction).
    used_v: Option<usize>,
    /// Flow-control blocks and calls opened so far (vs_2_0 allows 16 static flow
    /// instructions).
    flow: usize,
}

const XYZW: [char; 4] = ['x', 'y', 'z', 'w'];

impl Gen<'_> {
    fn line(&mut self, s: String) {
        let indent = "    ".repeat(self.depth);
        self.lines.push(format!("{indent}{s}"));
    }

    fn mask(&mut self) -> Vec<usize> {
        loop {
            let m: Vec<usize> = (0..4).filter(|_| self.rng.chance(60)).collect();
            if !m.is_empty() {
                return m;
            }
        }
    }

    fn mask_text(m: &[usize]) -> String {
        if m.len() == 4 {
            String::new()
        } else {
            let s: String = m.iter().map(|&c| XYZW[c]).collect();
            format!(".{s}")
        }
    }

    fn swizzle(&mut self) -> ([usize; 4], String) {
        match self.rng.below(4) {
            0 => ([0, 1, 2, 3], String::new()),
            1 => {
                let c = self.rng.below(4);
                ([c; 4], format!(".{}", XYZW[c]))
            }
            _ => {
                let s = [0, 0, 0, 0].map(|_| self.rng.below(4));
                (
                    s,
                    format!(".{}", s.iter().map(|&c| XYZW[c]).collect::<String>()),
                )
            }
        }
    }

    /// A source operand: (text, class of each component after the swizzle). `exact_only`:
    /// a register whose selected components are all exact (or a constant / input).
    fn source(
        &mut self,
        used_c: &mut Option<String>,
        exact_only: bool,
        modifiers: bool,
    ) -> (String, [Class; 4]) {
        let sw = self.swizzle();
        self.source_swizzled(used_c, exact_only, modifiers, sw)
    }

    /// A source read with one component replicated (scalar operands, comparisons).
    fn scalar_source(&mut self, used_c: &mut Option<String>, exact_only: bool) -> String {
        let c = self.rng.below(4);
        let sw = ([c; 4], format!(".{}", XYZW[c]));
        self.source_swizzled(used_c, exact_only, true, sw).0
    }

    fn source_swizzled(
        &mut self,
        used_c: &mut Option<String>,
        exact_only: bool,
        modifiers: bool,
        (sw, sw_text): ([usize; 4], String),
    ) -> (String, [Class; 4]) {
        let choice = self.rng.below(10);
        let (reg, classes) = if choice < 5 && !(exact_only && self.restricted) {
            let n = self.rng.below(TEMPS);
            let cls = sw.map(|c| self.temps[n][c]);
            if exact_only && cls.contains(&Class::Inexact) {
                // Fall back to a constant.
                self.constant(used_c)
            } else {
                (format!("r{n}"), cls)
            }
        } else if choice < 7 {
            // One v# register per instruction.
            let v = match self.used_v {
                Some(v) => v,
                None => self.rng.below(INPUTS),
            };
            self.used_v = Some(v);
            (format!("v{v}"), [Class::Exact; 4])
        } else {
            self.constant(used_c)
        };
        let neg = modifiers && self.rng.chance(20);
        let abs = modifiers && self.profile == Profile::Vs30 && self.rng.chance(15);
        let text = match (neg, abs) {
            (false, false) => format!("{reg}{sw_text}"),
            (true, false) => format!("-{reg}{sw_text}"),
            (false, true) => format!("{reg}_abs{sw_text}"),
            (true, true) => format!("-{reg}_abs{sw_text}"),
        };
        (text, classes)
    }

    /// A c# operand respecting the one-constant-register rule (`used_c`).
    fn constant(&mut self, used_c: &mut Option<String>) -> (String, [Class; 4]) {
        if let Some(c) = used_c.clone() {
            return (c, [Class::Exact; 4]);
        }
        let reg = if self.a0_set && self.rng.chance(25) {
            format!("c[a0.x + {}]", self.rng.below(RANDOM_CONSTANTS))
        } else {
            format!("c{}", self.rng.below(RANDOM_CONSTANTS))
        };
        *used_c = Some(reg.clone());
        (reg, [Class::Exact; 4])
    }

    /// A destination: a temporary or an output, with a mask (`allowed` restricts it).
    fn destination(&mut self, allowed: &[usize], temp_only: bool) -> (bool, usize, Vec<usize>) {
        let to_output = !temp_only && self.rng.chance(30);
        let n = if to_output {
            self.rng.below(OUTPUTS)
        } else {
            self.rng.below(TEMPS)
        };
        let mut m: Vec<usize> = self
            .mask()
            .into_iter()
            .filter(|c| allowed.contains(c))
            .collect();
        if m.is_empty() {
            m.push(allowed[0]);
        }
        (to_output, n, m)
    }

    fn dst_text(&self, output: bool, n: usize, m: &[usize]) -> String {
        let reg = match (output, self.profile) {
            (true, Profile::Vs30) => format!("o{}", n + 1),
            (true, _) => format!("oT{n}"),
            (false, _) => format!("r{n}"),
        };
        format!("{reg}{}", Self::mask_text(m))
    }

    /// Record the classes of a write; a predicated write joins old and new.
    fn record(
        &mut self,
        output: bool,
        n: usize,
        m: &[usize],
        classes: [Class; 4],
        predicated: bool,
    ) {
        let target = if output {
            &mut self.outs[n]
        } else {
            &mut self.temps[n]
        };
        for &c in m {
            target[c] = if predicated || self.depth > 0 {
                target[c].max(classes[c])
            } else {
                classes[c]
            };
        }
        self.written_in_body.push((output, n));
    }

    fn instruction(&mut self) {
        self.used_v = None;
        let mut used_c = None;
        let pred = if self.predicate_set && self.rng.chance(15) {
            let c = XYZW[self.rng.below(4)];
            Some(if self.rng.chance(50) {
                format!("(p0.{c}) ")
            } else {
                format!("(!p0.{c}) ")
            })
        } else {
            None
        };
        let p = pred.clone().unwrap_or_default();
        let sat = self.profile == Profile::Vs30 && self.rng.chance(15);
        let sat_text = if sat { "_sat" } else { "" };
        let kind = self.rng.below(22);
        let join = |a: [Class; 4], b: [Class; 4]| [0, 1, 2, 3].map(|c| a[c].max(b[c]));
        let scalar = |x: Class| [x; 4];
        match kind {
            // Component-wise, exact: add, sub, min, max, mov, abs.
            0..=5 => {
                let op = *self.rng.pick(&["add", "sub", "min", "max", "mov", "abs"]);
                let (dst_o, n, m) = self.destination(&[0, 1, 2, 3], false);
                let (a, ca) = self.source(&mut used_c, false, true);
                let unary = matches!(op, "mov" | "abs");
                let (b, cb) = if unary {
                    (String::new(), [Class::Exact; 4])
                } else {
                    let (b, cb) = self.source(&mut used_c, false, true);
                    (format!(", {b}"), cb)
                };
                let mut cls = join(ca, cb);
                if matches!(op, "add" | "sub") {
                    // A product meeting an add may fuse.
                    cls = cls.map(|c| {
                        if c == Class::Product {
                            Class::Inexact
                        } else {
                            c
                        }
                    });
                } else if op != "mov" {
                    cls = cls.map(|c| if c == Class::Product { Class::Exact } else { c });
                }
                if sat {
                    cls = cls.map(|c| if c == Class::Product { Class::Exact } else { c });
                }
                let d = self.dst_text(dst_o, n, &m);
                self.line(format!("{p}{op}{sat_text} {d}, {a}{b}"));
                self.record(dst_o, n, &m, cls, pred.is_some());
            }
            6 | 7 => {
                let (dst_o, n, m) = self.destination(&[0, 1, 2, 3], false);
                let (a, ca) = self.source(&mut used_c, false, true);
                let (b, cb) = self.source(&mut used_c, false, true);
                let both = join(ca, cb);
                let cls = both.map(|c| {
                    if c == Class::Exact && !sat {
                        Class::Product
                    } else if c == Class::Exact {
                        Class::Exact
                    } else {
                        Class::Inexact
                    }
                });
                let d = self.dst_text(dst_o, n, &m);
                self.line(format!("{p}mul{sat_text} {d}, {a}, {b}"));
                self.record(dst_o, n, &m, cls, pred.is_some());
            }
            // Fused or summed: mad, lrp, dp3, dp4.
            8..=10 => {
                let op = *self.rng.pick(&["mad", "lrp", "dp3", "dp4"]);
                let (dst_o, n, m) = self.destination(&[0, 1, 2, 3], false);
                let (a, _) = self.source(&mut used_c, false, true);
                let (b, _) = self.source(&mut used_c, false, true);
                let c = if matches!(op, "mad" | "lrp") {
                    let (c, _) = self.source(&mut used_c, false, true);
                    format!(", {c}")
                } else {
                    String::new()
                };
                let d = self.dst_text(dst_o, n, &m);
                self.line(format!("{p}{op}{sat_text} {d}, {a}, {b}{c}"));
                self.record(dst_o, n, &m, [Class::Inexact; 4], pred.is_some());
            }
            // Discontinuous, exact results: slt, sge, frc.
            11 | 12 => {
                let op = *self.rng.pick(&["slt", "sge", "frc"]);
                let (dst_o, n, m) = self.destination(&[0, 1, 2, 3], false);
                let (a, _) = self.source(&mut used_c, true, true);
                let b = if op == "frc" {
                    String::new()
                } else {
                    format!(", {}", self.source(&mut used_c, true, true).0)
                };
                let d = self.dst_text(dst_o, n, &m);
                // frc takes no _sat (SDK).
                let sat_text = if op == "frc" { "" } else { sat_text };
                self.line(format!("{p}{op}{sat_text} {d}, {a}{b}"));
                self.record(dst_o, n, &m, [Class::Exact; 4], pred.is_some());
            }
            // Scalar transcendental: rcp, rsq, exp, log, expp, logp, pow.
            13 | 14 => {
                let op = *self
                    .rng
                    .pick(&["rcp", "rsq", "exp", "log", "expp", "logp", "pow"]);
                let (dst_o, n, m) = self.destination(&[0, 1, 2, 3], false);
                let a = self.scalar_source(&mut used_c, true);
                let b = if op == "pow" {
                    format!(", {}", self.scalar_source(&mut used_c, true))
                } else {
                    String::new()
                };
                let d = self.dst_text(dst_o, n, &m);
                self.line(format!("{p}{op}{sat_text} {d}, {a}{b}"));
                // rcp/rsq/log of an exact value: correctly rounded on neither side.
                self.record(dst_o, n, &m, scalar(Class::Inexact), pred.is_some());
            }
            15 => {
                // lit, dst
                let op = *self.rng.pick(&["lit", "dst"]);
                let (dst_o, n, m) = self.destination(&[0, 1, 2, 3], false);
                let (a, _) = self.source(&mut used_c, true, true);
                let b = if op == "dst" {
                    format!(", {}", self.source(&mut used_c, false, true).0)
                } else {
                    String::new()
                };
                let d = self.dst_text(dst_o, n, &m);
                self.line(format!("{p}{op}{sat_text} {d}, {a}{b}"));
                self.record(dst_o, n, &m, [Class::Inexact; 4], pred.is_some());
            }
            16 => {
                // Matrix multiply from consecutive constants.
                const XYZW4: &[usize] = &[0, 1, 2, 3];
                const XYZ3: &[usize] = &[0, 1, 2];
                const MATRICES: [(&str, &[&[usize]]); 5] = [
                    ("m4x4", &[XYZW4, XYZ3]),
                    ("m4x3", &[XYZ3]),
                    ("m3x4", &[XYZW4, XYZ3]),
                    ("m3x3", &[XYZ3]),
                    ("m3x2", &[&[0, 1]]),
                ];
                let (op, masks) = *self.rng.pick(&MATRICES);
                let m: Vec<usize> = self.rng.pick(masks).to_vec();
                let n = self.rng.below(TEMPS);
                let dst_o = false;
                let (a, _) = loop {
                    let s = self.source(&mut None, false, false);
                    if !s.0.contains('c') && !s.0.contains('.') {
                        break s;
                    }
                    if self.rng.chance(30) {
                        break (format!("r{}", self.rng.below(TEMPS)), [Class::Exact; 4]);
                    }
                };
                let base = self.rng.below(RANDOM_CONSTANTS - 4);
                let d = self.dst_text(dst_o, n, &m);
                self.line(format!("{p}{op}{sat_text} {d}, {a}, c{base}"));
                self.record(dst_o, n, &m, [Class::Inexact; 4], pred.is_some());
            }
            17 => {
                // crs, nrm (temporaries; crs writes a subset of xyz).
                let op = *self.rng.pick(&["crs", "nrm"]);
                let allowed: &[usize] = if op == "crs" {
                    &[0, 1, 2]
                } else {
                    &[0, 1, 2, 3]
                };
                let (_, n, m) = self.destination(allowed, true);
                let d = self.dst_text(false, n, &m);
                if op == "crs" {
                    // The destination may not be a source.
                    let other = |g: &mut Self| (n + 1 + g.rng.below(TEMPS - 1)) % TEMPS;
                    let a = format!("r{}", other(self));
                    let b = format!("r{}", other(self));
                    self.line(format!("{p}crs {d}, {a}, {b}"));
                } else {
                    let (a, _) = self.source(&mut used_c, false, false);
                    self.line(format!("{p}nrm{sat_text} {d}, {a}"));
                }
                self.record(false, n, &m, [Class::Inexact; 4], pred.is_some());
            }
            18 => {
                // sgn with its scratch registers.
                let (dst_o, n, m) = self.destination(&[0, 1, 2, 3], true);
                let (a, _) = self.source(&mut used_c, true, true);
                let d = self.dst_text(dst_o, n, &m);
                if self.profile == Profile::Vs30 {
                    self.line(format!("{p}sgn{sat_text} {d}, {a}"));
                } else {
                    self.line(format!("{p}sgn{sat_text} {d}, {a}, r6, r7"));
                }
                self.record(dst_o, n, &m, [Class::Exact; 4], pred.is_some());
            }
            19 => {
                // sincos of an argument brought into [-π, π] by frc: from an exact value only,
                // as every frc (frc keeps the absolute error of its operand: one ulp of an
                // inexact 55109 is 1/256 of a turn; program 8887 of seed 2). An inexact
                // register is replaced by an input without drawing from the generator, so
                // the programs of every seed are otherwise unchanged.
                let c = self.rng.below(4);
                let sw = ([c; 4], format!(".{}", XYZW[c]));
                let (a, cls) = self.source_swizzled(&mut None, false, true, sw);
                let a = if cls.contains(&Class::Inexact) {
                    let v = self.used_v.unwrap_or(0);
                    self.used_v = Some(v);
                    format!("v{v}.{}", XYZW[c])
                } else {
                    a
                };
                self.line(format!("mov r8.x, {a}"));
                self.line("frc r8.x, r8.x".into());
                self.line("mad r8.x, r8.x, c48.x, c48.y".into());
                let m: Vec<usize> = self.rng.pick(&[vec![0], vec![1], vec![0, 1]]).clone();
                let n = self.rng.below(TEMPS);
                let d = self.dst_text(false, n, &m);
                if self.profile == Profile::Vs30 {
                    self.line(format!("{p}sincos {d}, r8.x"));
                } else {
                    self.line(format!("{p}sincos {d}, r8.x, c49, c50"));
                }
                self.record(false, n, &m, [Class::Inexact; 4], pred.is_some());
            }
            20 if self.profile.dynamic() => {
                // setp, then predicated instructions may follow.
                let cmp = *self.rng.pick(&["gt", "lt", "ge", "le", "eq", "ne"]);
                let m = self.mask();
                let (a, _) = self.source(&mut used_c, true, true);
                let (b, _) = self.source(&mut used_c, true, true);
                self.line(format!("{p}setp_{cmp} p0{}, {a}, {b}", Self::mask_text(&m)));
                self.predicate_set = true;
            }
            _ => {
                // mova from a small index constant (halves round away from zero).
                let k = self
                    .rng
                    .pick(&INDEX_CONSTANTS.collect::<Vec<_>>())
                    .to_owned();
                let c = XYZW[self.rng.below(4)];
                self.line(format!("{p}mova a0.x, c{k}.{c}"));
                self.a0_set = true;
            }
        }
    }

    /// Make everything written since `mark` Inexact (a loop body or a call may run it any
    /// number of times).
    fn taint_since(&mut self, mark: usize) {
        for &(output, n) in &self.written_in_body[mark..] {
            let t = if output {
                &mut self.outs[n]
            } else {
                &mut self.temps[n]
            };
            *t = [Class::Inexact; 4];
        }
    }

    fn block(&mut self, len: usize, nesting: usize, subroutines: usize) {
        for _ in 0..len {
            // vs_2_0 counts if/loop/rep/call against 16 static flow instructions.
            let r = if self.profile == Profile::Vs20 && self.flow >= 12 {
                99
            } else {
                self.rng.below(100)
            };
            if r < 17 {
                self.flow += 1;
            }
            let max_depth = if self.profile.dynamic() { 2 } else { 1 };
            if r < 6 && nesting < max_depth {
                let mark = self.written_in_body.len();
                let b = self.rng.below(4);
                let not = if self.profile.dynamic() && self.rng.chance(30) {
                    "!"
                } else {
                    ""
                };
                self.line(format!("if {not}b{b}"));
                self.depth += 1;
                let n = 1 + self.rng.below(4);
                self.block(n, nesting + 1, subroutines);
                if self.rng.chance(40) {
                    self.depth -= 1;
                    self.line("else".into());
                    self.depth += 1;
                    let n = 1 + self.rng.below(3);
                    self.block(n, nesting + 1, subroutines);
                }
                self.depth -= 1;
                self.line("endif".into());
                let _ = mark;
            } else if r < 9 && nesting < max_depth && self.profile.dynamic() {
                let cmp = *self.rng.pick(&["gt", "lt", "ge", "le", "eq", "ne"]);
                let mut used = None;
                self.used_v = None;
                let a = self.scalar_source(&mut used, true);
                let b = self.scalar_source(&mut used, true);
                self.line(format!("if_{cmp} {a}, {b}"));
                self.depth += 1;
                let n = 1 + self.rng.below(3);
                self.block(n, nesting + 1, subroutines);
                self.depth -= 1;
                self.line("endif".into());
            } else if r < 14 && nesting < max_depth {
                let mark = self.written_in_body.len();
                let was = self.restricted;
                self.restricted = true;
                let i = self.rng.below(4);
                let is_loop = self.rng.chance(60);
                if is_loop {
                    self.line(format!("loop aL, i{i}"));
                } else {
                    self.line(format!("rep i{i}"));
                }
                self.depth += 1;
                let n = 1 + self.rng.below(4);
                for _ in 0..n {
                    if is_loop && self.rng.chance(30) {
                        let (_, d, m) = self.destination(&[0, 1, 2, 3], true);
                        let k = self.rng.below(RANDOM_CONSTANTS);
                        let text = self.dst_text(false, d, &m);
                        self.line(format!("add {text}, r{d}, c[aL + {k}]"));
                        self.record(false, d, &m, [Class::Inexact; 4], true);
                    } else if self.profile.dynamic() && self.rng.chance(10) {
                        let cmp = *self.rng.pick(&["gt", "lt", "ge", "le", "eq", "ne"]);
                        let a = format!("v{}.{}", self.rng.below(INPUTS), XYZW[self.rng.below(4)]);
                        let b = format!(
                            "c{}.{}",
                            self.rng.below(RANDOM_CONSTANTS),
                            XYZW[self.rng.below(4)]
                        );
                        self.line(format!("break_{cmp} {a}, {b}"));
                    } else {
                        self.block(1, nesting + 1, subroutines);
                    }
                }
                self.depth -= 1;
                self.line(if is_loop {
                    "endloop".into()
                } else {
                    "endrep".into()
                });
                self.restricted = was;
                self.taint_since(mark);
            } else if r < 17 && subroutines > 0 {
                let l = self.rng.below(subroutines);
                if self.rng.chance(40) {
                    let b = self.rng.below(4);
                    let not = if self.profile.dynamic() && self.rng.chance(30) {
                        "!"
                    } else {
                        ""
                    };
                    self.line(format!("callnz l{l}, {not}b{b}"));
                } else {
                    self.line(format!("call l{l}"));
                }
                // A subroutine may write anything, any number of times.
                self.temps = [[Class::Inexact; 4]; TEMPS];
                self.outs = [[Class::Inexact; 4]; OUTPUTS];
            } else {
                self.instruction();
            }
        }
    }
}

/// A random program of `profile`, its constants and output classes.
pub fn program(rng: &mut Rng, profile: Profile) -> Program {
    let mut g = Gen {
        rng,
        profile,
        lines: Vec::new(),
        temps: [[Class::Exact; 4]; TEMPS],
        outs: [[Class::Exact; 4]; OUTPUTS],
        restricted: false,
        depth: 0,
        written_in_body: Vec::new(),
        predicate_set: false,
        a0_set: false,
        used_v: None,
        flow: 0,
    };
    let mut head = vec![profile.name().to_string()];
    for k in 0..INPUTS {
        head.push(format!("dcl_texcoord{k} v{k}"));
    }
    if profile == Profile::Vs30 {
        head.push("dcl_position o0".into());
        for k in 0..OUTPUTS {
            head.push(format!("dcl_texcoord{k} o{}", k + 1));
        }
    }
    let ints: [[i32; 4]; 4] = [0, 1, 2, 3].map(|_| {
        [
            g.rng.below(5) as i32,
            g.rng.below(12) as i32,
            g.rng.below(6) as i32 - 2,
            0,
        ]
    });
    let bools = [0, 1, 2, 3].map(|_| g.rng.chance(50));
    // Registers start defined: temporaries from inputs and constants.
    let mut init = Vec::new();
    for r in 0..TEMPS {
        if r % 2 == 0 {
            init.push(format!("mov r{r}, v{}", g.rng.below(INPUTS)));
        } else {
            init.push(format!("mov r{r}, c{}", g.rng.below(RANDOM_CONSTANTS)));
        }
    }
    init.push("mov r6, c0".into());
    init.push("mov r7, c1".into());
    init.push("mov r8, c2".into());
    let pos = if profile == Profile::Vs30 {
        "o0"
    } else {
        "oPos"
    };
    init.push(format!("mov {pos}, c{POSITION_CONSTANT}"));
    for k in 0..OUTPUTS {
        let reg = if profile == Profile::Vs30 {
            format!("o{}", k + 1)
        } else {
            format!("oT{k}")
        };
        init.push(format!("mov {reg}, c{}", 50 + k + 1));
    }
    // Subroutines first (their bodies are restricted and taint what they write).
    let subroutines = if profile == Profile::Vs20 {
        g.rng.below(2)
    } else {
        g.rng.below(3)
    };
    let mut subs = Vec::new();
    for l in 0..subroutines {
        g.lines.clear();
        g.restricted = true;
        g.depth = 1;
        let n = 1 + g.rng.below(4);
        g.block(n, 1, 0);
        g.lines.insert(0, format!("label l{l}"));
        g.lines.push("    ret".into());
        subs.append(&mut g.lines);
    }
    g.restricted = false;
    g.depth = 0;
    g.temps = [[Class::Exact; 4]; TEMPS];
    g.outs = [[Class::Exact; 4]; OUTPUTS];
    g.lines.clear();
    let len = 6 + g.rng.below(20);
    g.block(len, 0, subroutines);
    let mut text = head;
    text.extend(init);
    text.append(&mut g.lines);
    if !subs.is_empty() {
        text.push("ret".into());
        text.extend(subs);
    }
    Program {
        profile,
        text: text.join("\n") + "\n",
        classes: g.outs,
        ints,
        bools,
    }
}
