//! Random valid vertex shaders (vs_1_1, vs_2_0, vs_2_x, vs_3_0) as assembly text.
//!
//! The generator covers the vertex instruction set: every arithmetic instruction of each
//! version with swizzles, write masks, negation (and `_abs`, `_sat` in vs_3_0), predication;
//! `mov a0.x` (vs_1_1) and `mova` into every `a0` component with `c[a0.? + n]` reads, relative
//! matrix operands (`m4x4 r, v, c[a0.x + n]`); `def`, `defi`, `defb`; `if b#` / `else`, `if p0`,
//! `ifc`, `loop` (counts past 255 included: the clamp), `rep`, `break`, `breakc`, `breakp`,
//! `call`, `callnz b#`, `callnz p0` and subroutines calling subroutines; `c[aL + n]`, and in
//! vs_3_0 `v[aL + n]` and `o[aL + n]`; `nop`; and every output: `oT#`/`o#` texture
//! coordinates, `oD0`, `oD1`, `oFog`, `oPts` (and their vs_3_0 semantics).
//!
//! The comparison takes each value's tolerance from its own operands (`bounds`), so the
//! generator need not say how a value was computed; it still feeds operations that are
//! discontinuous or amplify small differences (rcp, rsq, log, pow, exp, lit, frc, slt, sge,
//! sgn, setp, ifc, breakc, mova) only from exact values (constants, inputs, temporaries
//! written with exact operations), so that most of them stay checked exactly; inside loops
//! and subroutines, where a register may change between iterations, only from constants and
//! inputs.

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
                200.0,
                -300.0,
            ]);
        }
        let x = (self.next() >> 40) as f32 / (1u64 << 24) as f32; // [0, 1)
        let scale = *self.pick(&[1.0, 2.0, 4.0, 16.0, 100.0]);
        let v = (x * 2.0 - 1.0) * scale;
        // Sometimes a value with few significant bits (exact sums and products).
        if self.chance(30) {
            (v * 4.0).round() / 4.0
        } else {
            v
        }
    }
}

/// How a temporary's value was computed (the generator's own bookkeeping: which registers
/// may feed the discontinuous instructions).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Class {
    /// Exactly rounded operations of exact values only.
    Exact,
    /// An exact product that a following add may fuse into a multiply-add.
    Product,
    /// Rounded, fused or approximated somewhere.
    Inexact,
}

/// The vertex shader version generated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Profile {
    Vs11,
    Vs20,
    Vs2x,
    Vs30,
}

impl Profile {
    pub const ALL: [Profile; 4] = [Profile::Vs11, Profile::Vs20, Profile::Vs2x, Profile::Vs30];

    pub fn name(self) -> &'static str {
        match self {
            Profile::Vs11 => "vs_1_1",
            Profile::Vs20 => "vs_2_0",
            Profile::Vs2x => "vs_2_x",
            Profile::Vs30 => "vs_3_0",
        }
    }
    /// vs_2_0 and later: flow control, `mova`, `defi`/`defb`, the 2.0 instructions.
    fn sm2(self) -> bool {
        self != Profile::Vs11
    }
    /// vs_2_x and vs_3_0: predication, `setp`, dynamic branches, `break`.
    fn dynamic(self) -> bool {
        matches!(self, Profile::Vs2x | Profile::Vs30)
    }
    fn vs3(self) -> bool {
        self == Profile::Vs30
    }
}

/// Temporaries the body uses (r6/r7 are sgn's scratch registers, r8 the sincos argument).
const TEMPS: usize = 6;
/// Output texture coordinates o1..o4 (vs_3_0) or oT0..oT3.
pub const TEXCOORDS: usize = 4;
/// Vertex inputs v0..v3 (TEXCOORD0..3).
pub const INPUTS: usize = 4;
/// Application float constants c0..c31 are random; c32..c47 small indices for `a0` (some
/// halfway between two); c48 = (2π, -π, 0, 0) for sincos arguments; c49/c50 the vs_2_0
/// sincos constants; c51..c58 the outputs' first values; c60 the position; c61..c63 `def`s.
pub const RANDOM_CONSTANTS: usize = 32;
pub const INDEX_CONSTANTS: std::ops::Range<usize> = 32..48;
pub const OUTPUT_CONSTANTS: usize = 51;
pub const POSITION_CONSTANT: usize = 60;
/// The loop counter's register for `o[aL]` loops (`defi`, a start of 1 or 2, step 0 or 1,
/// at most 4 iterations: aL stays within o1..o5, never the position).
const OUTPUT_LOOP: &str = "i4";

/// The outputs a destination may name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Out {
    TexCoord(usize),
    Color(usize),
    Fog,
    PointSize,
}

impl Out {
    const ALL: [Out; 8] = [
        Out::TexCoord(0),
        Out::TexCoord(1),
        Out::TexCoord(2),
        Out::TexCoord(3),
        Out::Color(0),
        Out::Color(1),
        Out::Fog,
        Out::PointSize,
    ];

    fn register(self, profile: Profile) -> String {
        match (self, profile.vs3()) {
            (Out::TexCoord(n), true) => format!("o{}", n + 1),
            (Out::Color(n), true) => format!("o{}", n + 5),
            (Out::Fog, true) => "o7".into(),
            (Out::PointSize, true) => "o8".into(),
            (Out::TexCoord(n), false) => format!("oT{n}"),
            (Out::Color(n), false) => format!("oD{n}"),
            (Out::Fog, false) => "oFog".into(),
            (Out::PointSize, false) => "oPts".into(),
        }
    }

    /// Fog and point size are scalars: written through `.x`.
    fn scalar(self) -> bool {
        matches!(self, Out::Fog | Out::PointSize)
    }
}

/// A generated program.
pub struct Program {
    pub profile: Profile,
    pub text: String,
    /// Integer constants i0..i3 (loop counts, starts, steps) and booleans b0..b3.
    pub ints: [[i32; 4]; 4],
    pub bools: [bool; 4],
}

struct Gen<'r> {
    rng: &'r mut Rng,
    profile: Profile,
    lines: Vec<String>,
    temps: [[Class; 4]; TEMPS],
    /// Inside a loop or subroutine body: discontinuous ops read only constants and inputs.
    restricted: bool,
    depth: usize,
    /// `loop`s (not `rep`s) open in the current function: aL-relative operands need one.
    al_loops: usize,
    /// Temporaries written since the innermost loop or subroutine started (made Inexact
    /// after).
    written_in_body: Vec<usize>,
    /// `a0` components set so far (relative `c#` reads use only those).
    a0_set: [bool; 4],
    /// The v# register the current instruction reads (one per instruction).
    used_v: Option<String>,
    /// Flow-control blocks and calls opened so far (vs_2_0 allows 16 static flow
    /// instructions).
    flow: usize,
}

const XYZW: [char; 4] = ['x', 'y', 'z', 'w'];
const COMPARISONS: [&str; 6] = ["gt", "lt", "ge", "le", "eq", "ne"];

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
            // One v# register per instruction; in a vs_3_0 loop sometimes v[aL + n].
            let reg = match &self.used_v {
                Some(v) => v.clone(),
                None => {
                    let v = self.rng.below(INPUTS);
                    if self.profile.vs3() && self.al_loops > 0 && self.rng.chance(50) {
                        format!("v[aL + {v}]")
                    } else {
                        format!("v{v}")
                    }
                }
            };
            self.used_v = Some(reg.clone());
            (reg, [Class::Exact; 4])
        } else {
            self.constant(used_c)
        };
        let neg = modifiers && self.rng.chance(20);
        let abs = modifiers && self.profile.vs3() && self.rng.chance(15);
        let text = match (neg, abs) {
            (false, false) => format!("{reg}{sw_text}"),
            (true, false) => format!("-{reg}{sw_text}"),
            (false, true) => format!("{reg}_abs{sw_text}"),
            (true, true) => format!("-{reg}_abs{sw_text}"),
        };
        (text, classes)
    }

    /// A c# operand respecting the one-constant-register rule (`used_c`): a random constant,
    /// a `def`, or a relative read through a0 (any component set) or aL.
    fn constant(&mut self, used_c: &mut Option<String>) -> (String, [Class; 4]) {
        if let Some(c) = used_c.clone() {
            return (c, [Class::Exact; 4]);
        }
        let set: Vec<usize> = (0..4).filter(|&c| self.a0_set[c]).collect();
        let reg = if !set.is_empty() && self.rng.chance(25) {
            let c = *self.rng.pick(&set);
            format!("c[a0.{} + {}]", XYZW[c], self.rng.below(RANDOM_CONSTANTS))
        } else if self.al_loops > 0 && self.rng.chance(15) {
            format!("c[aL + {}]", self.rng.below(RANDOM_CONSTANTS))
        } else if self.rng.chance(10) {
            format!("c{}", 61 + self.rng.below(3))
        } else {
            format!("c{}", self.rng.below(RANDOM_CONSTANTS))
        };
        *used_c = Some(reg.clone());
        (reg, [Class::Exact; 4])
    }

    /// A destination: a temporary or an output, with a mask (`allowed` restricts it).
    fn destination(
        &mut self,
        allowed: &[usize],
        temp_only: bool,
    ) -> (Option<Out>, usize, Vec<usize>) {
        let output = (!temp_only && self.rng.chance(30)).then(|| *self.rng.pick(&Out::ALL));
        let n = self.rng.below(TEMPS);
        let mut m: Vec<usize> = match output {
            Some(o) if o.scalar() => vec![0],
            _ => self.mask(),
        }
        .into_iter()
        .filter(|c| allowed.contains(c))
        .collect();
        if m.is_empty() {
            m.push(allowed[0]);
        }
        (output, n, m)
    }

    fn dst_text(&self, output: Option<Out>, n: usize, m: &[usize]) -> String {
        let reg = match output {
            Some(o) => o.register(self.profile),
            None => format!("r{n}"),
        };
        format!("{reg}{}", Self::mask_text(m))
    }

    /// Record the classes of a write to a temporary; a predicated write joins old and new.
    fn record(
        &mut self,
        output: Option<Out>,
        n: usize,
        m: &[usize],
        classes: [Class; 4],
        predicated: bool,
    ) {
        if output.is_some() {
            return;
        }
        for &c in m {
            self.temps[n][c] = if predicated || self.depth > 0 {
                self.temps[n][c].max(classes[c])
            } else {
                classes[c]
            };
        }
        self.written_in_body.push(n);
    }

    fn instruction(&mut self) {
        self.used_v = None;
        let mut used_c = None;
        let pred = if self.profile.dynamic() && self.rng.chance(15) {
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
        let sat = self.profile.vs3() && self.rng.chance(15);
        let sat_text = if sat { "_sat" } else { "" };
        let kind = self.rng.below(24);
        let join = |a: [Class; 4], b: [Class; 4]| [0, 1, 2, 3].map(|c| a[c].max(b[c]));
        let scalar = |x: Class| [x; 4];
        let sm2 = self.profile.sm2();
        match kind {
            // Component-wise, exact: add, sub, min, max, mov, abs.
            0..=5 => {
                let ops: &[&str] = if sm2 {
                    &["add", "sub", "min", "max", "mov", "abs"]
                } else {
                    &["add", "sub", "min", "max", "mov"]
                };
                let op = *self.rng.pick(ops);
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
                } else if op != "mov" || sat {
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
                let cls = join(ca, cb).map(|c| match (c, sat) {
                    (Class::Exact, false) => Class::Product,
                    (Class::Exact, true) => Class::Exact,
                    _ => Class::Inexact,
                });
                let d = self.dst_text(dst_o, n, &m);
                self.line(format!("{p}mul{sat_text} {d}, {a}, {b}"));
                self.record(dst_o, n, &m, cls, pred.is_some());
            }
            // Fused or summed: mad, lrp, dp3, dp4.
            8..=10 => {
                let ops: &[&str] = if sm2 {
                    &["mad", "lrp", "dp3", "dp4"]
                } else {
                    &["mad", "dp3", "dp4"]
                };
                let op = *self.rng.pick(ops);
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
                // vs_1_1's frc writes .x or .xy (a macro).
                let m = if op == "frc" && !sm2 { vec![0] } else { m };
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
                let ops: &[&str] = if sm2 {
                    &["rcp", "rsq", "exp", "log", "expp", "logp", "pow"]
                } else {
                    &["rcp", "rsq", "exp", "log", "expp", "logp"]
                };
                let op = *self.rng.pick(ops);
                let (dst_o, n, m) = self.destination(&[0, 1, 2, 3], false);
                let a = self.scalar_source(&mut used_c, true);
                let b = if op == "pow" {
                    format!(", {}", self.scalar_source(&mut used_c, true))
                } else {
                    String::new()
                };
                let d = self.dst_text(dst_o, n, &m);
                self.line(format!("{p}{op}{sat_text} {d}, {a}{b}"));
                self.record(dst_o, n, &m, scalar(Class::Inexact), pred.is_some());
            }
            15 => {
                // lit, dst; lit's source sometimes from a constant whose w passes the clamp.
                let op = *self.rng.pick(&["lit", "dst"]);
                let (dst_o, n, m) = self.destination(&[0, 1, 2, 3], false);
                let (a, _) = if op == "lit" && used_c.is_none() && self.rng.chance(50) {
                    used_c = Some("c63".into());
                    ("c63".into(), [Class::Exact; 4])
                } else {
                    self.source(&mut used_c, true, true)
                };
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
                // Matrix multiply from consecutive constants, sometimes relative to a0.
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
                let (a, _) = loop {
                    let s = self.source(&mut None, false, false);
                    if !s.0.contains('c') && !s.0.contains('.') && !s.0.contains('[') {
                        break s;
                    }
                    if self.rng.chance(30) {
                        break (format!("r{}", self.rng.below(TEMPS)), [Class::Exact; 4]);
                    }
                };
                let base = self.rng.below(RANDOM_CONSTANTS - 4);
                let set: Vec<usize> = (0..4).filter(|&c| self.a0_set[c]).collect();
                let matrix = if !set.is_empty() && self.rng.chance(40) {
                    let c = if sm2 { *self.rng.pick(&set) } else { 0 };
                    format!("c[a0.{} + {base}]", XYZW[c])
                } else {
                    format!("c{base}")
                };
                let d = self.dst_text(None, n, &m);
                self.line(format!("{p}{op}{sat_text} {d}, {a}, {matrix}"));
                self.record(None, n, &m, [Class::Inexact; 4], pred.is_some());
            }
            17 if sm2 => {
                // crs, nrm (temporaries; crs writes a subset of xyz).
                let op = *self.rng.pick(&["crs", "nrm"]);
                let allowed: &[usize] = if op == "crs" {
                    &[0, 1, 2]
                } else {
                    &[0, 1, 2, 3]
                };
                let (_, n, m) = self.destination(allowed, true);
                let d = self.dst_text(None, n, &m);
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
                self.record(None, n, &m, [Class::Inexact; 4], pred.is_some());
            }
            18 if sm2 => {
                // sgn with its scratch registers.
                let (dst_o, n, m) = self.destination(&[0, 1, 2, 3], true);
                let (a, _) = self.source(&mut used_c, true, true);
                let d = self.dst_text(dst_o, n, &m);
                if self.profile.vs3() {
                    self.line(format!("{p}sgn{sat_text} {d}, {a}"));
                } else {
                    self.line(format!("{p}sgn{sat_text} {d}, {a}, r6, r7"));
                }
                self.record(dst_o, n, &m, [Class::Exact; 4], pred.is_some());
            }
            19 if sm2 => {
                // sincos of an argument brought into [-π, π] by frc, from an exact value only
                // (frc keeps the absolute error of its operand: one ulp of an inexact 55109 is
                // 1/256 of a turn; program 8887 of seed 2).
                let c = self.rng.below(4);
                let sw = ([c; 4], format!(".{}", XYZW[c]));
                let (a, cls) = self.source_swizzled(&mut None, false, true, sw);
                let a = if cls.contains(&Class::Inexact) {
                    let v = self.used_v.clone().unwrap_or_else(|| "v0".into());
                    self.used_v = Some(v.clone());
                    format!("{v}.{}", XYZW[c])
                } else {
                    a
                };
                self.line(format!("mov r8.x, {a}"));
                self.line("frc r8.x, r8.x".into());
                self.line("mad r8.x, r8.x, c48.x, c48.y".into());
                let m: Vec<usize> = self.rng.pick(&[vec![0], vec![1], vec![0, 1]]).clone();
                let n = self.rng.below(TEMPS);
                let d = self.dst_text(None, n, &m);
                if self.profile.vs3() {
                    self.line(format!("{p}sincos {d}, r8.x"));
                } else {
                    self.line(format!("{p}sincos {d}, r8.x, c49, c50"));
                }
                self.record(None, n, &m, [Class::Inexact; 4], pred.is_some());
            }
            20 if self.profile.dynamic() => {
                // setp, then predicated instructions and `if p0` / `callnz p0` / `breakp`
                // follow.
                let cmp = *self.rng.pick(&COMPARISONS);
                let m = self.mask();
                let (a, _) = self.source(&mut used_c, true, true);
                let (b, _) = self.source(&mut used_c, true, true);
                self.line(format!("{p}setp_{cmp} p0{}, {a}, {b}", Self::mask_text(&m)));
            }
            21 => self.line("nop".into()),
            _ => {
                // a0 from a small index constant: `mov a0.x` (vs_1_1, floors) or `mova` into
                // any components (rounds halves to even).
                let k = self
                    .rng
                    .pick(&INDEX_CONSTANTS.collect::<Vec<_>>())
                    .to_owned();
                if sm2 {
                    let m = self.mask();
                    let (_, sw) = self.swizzle();
                    self.line(format!("{p}mova a0{}, c{k}{sw}", Self::mask_text(&m)));
                    // A predicated write may leave a component unset.
                    if pred.is_none() {
                        for c in m {
                            self.a0_set[c] = true;
                        }
                    }
                } else {
                    let c = XYZW[self.rng.below(4)];
                    self.line(format!("mov a0.x, c{k}.{c}"));
                    self.a0_set[0] = true;
                }
            }
        }
    }

    /// Make every temporary written since `mark` Inexact (a loop body or a call may run it
    /// any number of times).
    fn taint_since(&mut self, mark: usize) {
        for k in mark..self.written_in_body.len() {
            let n = self.written_in_body[k];
            self.temps[n] = [Class::Inexact; 4];
        }
    }

    /// A condition for `if`, `callnz` or `breakp`: `b#` (static), or `p0.c` where dynamic.
    fn condition(&mut self, predicate: bool) -> String {
        let not = if self.profile.dynamic() && self.rng.chance(30) {
            "!"
        } else {
            ""
        };
        if predicate {
            format!("{not}p0.{}", XYZW[self.rng.below(4)])
        } else {
            // b4 is a `defb`.
            format!("{not}b{}", self.rng.below(5))
        }
    }

    /// `subroutine`: the number of the subroutine this block is in (it may call only
    /// later ones, so there is no recursion), or `None` for the main function.
    fn block(&mut self, len: usize, nesting: usize, subroutine: Option<usize>, subroutines: usize) {
        for _ in 0..len {
            if !self.profile.sm2() {
                self.instruction();
                continue;
            }
            // vs_2_0 counts if/else/loop/rep/call against 16 static flow instructions.
            let r = if self.profile == Profile::Vs20 && self.flow >= 12 {
                99
            } else {
                self.rng.below(100)
            };
            let max_depth = if self.profile.dynamic() { 2 } else { 1 };
            let dynamic = self.profile.dynamic();
            // vs_2_0 calls nest once: a subroutine calls none.
            let callable: Vec<usize> = match subroutine {
                None => (0..subroutines).collect(),
                Some(_) if self.profile == Profile::Vs20 => Vec::new(),
                Some(s) => (s + 1..subroutines).collect(),
            };
            if r < 6 && nesting < max_depth {
                self.flow += 1;
                let on_predicate = dynamic && self.rng.chance(40);
                let cond = self.condition(on_predicate);
                self.line(format!("if {cond}"));
                self.depth += 1;
                let n = 1 + self.rng.below(4);
                self.block(n, nesting + 1, subroutine, subroutines);
                if self.rng.chance(40) {
                    self.flow += 1;
                    self.depth -= 1;
                    self.line("else".into());
                    self.depth += 1;
                    let n = 1 + self.rng.below(3);
                    self.block(n, nesting + 1, subroutine, subroutines);
                }
                self.depth -= 1;
                self.line("endif".into());
            } else if r < 9 && nesting < max_depth && dynamic {
                let cmp = *self.rng.pick(&COMPARISONS);
                let mut used = None;
                self.used_v = None;
                let a = self.scalar_source(&mut used, true);
                let b = self.scalar_source(&mut used, true);
                self.line(format!("if_{cmp} {a}, {b}"));
                self.depth += 1;
                let n = 1 + self.rng.below(3);
                self.block(n, nesting + 1, subroutine, subroutines);
                self.depth -= 1;
                self.line("endif".into());
            } else if r < 14 && nesting < max_depth {
                self.flow += 1;
                self.looped(nesting, subroutine, subroutines);
            } else if r < 17 && !callable.is_empty() {
                self.flow += 1;
                let l = *self.rng.pick(&callable);
                match self.rng.below(10) {
                    0..=2 => {
                        let cond = self.condition(false);
                        self.line(format!("callnz l{l}, {cond}"));
                    }
                    3 | 4 if dynamic => {
                        let cond = self.condition(true);
                        self.line(format!("callnz l{l}, {cond}"));
                    }
                    _ => self.line(format!("call l{l}")),
                }
                // A subroutine may write anything, any number of times.
                self.temps = [[Class::Inexact; 4]; TEMPS];
            } else {
                self.instruction();
            }
        }
    }

    /// A `loop` or `rep` with its body: breaks, `c[aL]`, `v[aL]`, `o[aL]` where allowed.
    fn looped(&mut self, nesting: usize, subroutine: Option<usize>, subroutines: usize) {
        let mark = self.written_in_body.len();
        let was = self.restricted;
        self.restricted = true;
        // i3 may count past 255 (the clamp); only the outermost loop of main uses it.
        let top = nesting == 0 && subroutine.is_none();
        let is_loop = self.rng.chance(60);
        let outputs = is_loop && self.profile.vs3() && self.rng.chance(40);
        let counter = if outputs {
            OUTPUT_LOOP.to_string()
        } else {
            format!("i{}", self.rng.below(if top { 4 } else { 3 }))
        };
        if is_loop {
            self.line(format!("loop aL, {counter}"));
        } else {
            self.line(format!("rep {counter}"));
        }
        self.depth += 1;
        self.al_loops += usize::from(is_loop);
        let n = 1 + self.rng.below(4);
        for _ in 0..n {
            let dynamic = self.profile.dynamic();
            match self.rng.below(100) {
                0..=24 if is_loop => {
                    let (_, d, m) = self.destination(&[0, 1, 2, 3], true);
                    let k = self.rng.below(RANDOM_CONSTANTS);
                    let text = self.dst_text(None, d, &m);
                    self.line(format!("add {text}, r{d}, c[aL + {k}]"));
                    self.record(None, d, &m, [Class::Inexact; 4], true);
                }
                25..=39 if outputs => {
                    let (a, _) = self.source(&mut None, false, true);
                    self.line(format!("mov o[aL + 0], {a}"));
                }
                40..=47 if dynamic => {
                    let cmp = *self.rng.pick(&COMPARISONS);
                    let a = format!("v{}.{}", self.rng.below(INPUTS), XYZW[self.rng.below(4)]);
                    let b = format!(
                        "c{}.{}",
                        self.rng.below(RANDOM_CONSTANTS),
                        XYZW[self.rng.below(4)]
                    );
                    self.line(format!("break_{cmp} {a}, {b}"));
                }
                48..=52 if dynamic => {
                    let cond = self.condition(true);
                    self.line(format!("breakp {cond}"));
                }
                53..=57 if dynamic => {
                    // A plain break, under a static condition.
                    let cond = self.condition(false);
                    self.line(format!("if {cond}"));
                    self.line("    break".into());
                    self.line("endif".into());
                }
                _ => self.block(1, nesting + 1, subroutine, subroutines),
            }
        }
        self.al_loops -= usize::from(is_loop);
        self.depth -= 1;
        self.line(if is_loop {
            "endloop".into()
        } else {
            "endrep".into()
        });
        self.restricted = was;
        self.taint_since(mark);
    }
}

/// A random program of `profile` and its integer and boolean constants.
pub fn program(rng: &mut Rng, profile: Profile) -> Program {
    let mut g = Gen {
        rng,
        profile,
        lines: Vec::new(),
        temps: [[Class::Exact; 4]; TEMPS],
        restricted: false,
        depth: 0,
        al_loops: 0,
        written_in_body: Vec::new(),
        a0_set: [false; 4],
        used_v: None,
        flow: 0,
    };
    let mut head = vec![profile.name().to_string()];
    for k in 0..INPUTS {
        head.push(format!("dcl_texcoord{k} v{k}"));
    }
    if profile.vs3() {
        head.push("dcl_position o0".into());
        for k in 0..TEXCOORDS {
            head.push(format!("dcl_texcoord{k} o{}", k + 1));
        }
        head.push("dcl_color0 o5".into());
        head.push("dcl_color1 o6".into());
        head.push("dcl_fog o7.x".into());
        head.push("dcl_psize o8".into());
    }
    // def: c61 and c62 random, c63 for lit: x > 0, y in [1, 2) and a power past the clamp
    // (±127.9961), where y^w and y^127.9961 differ by 0.1-0.3%.
    for k in 61..64 {
        let mut v = [0; 4].map(|_| g.rng.value(false));
        if k == 63 {
            v[0] = 0.5 + g.rng.below(64) as f32 / 64.0;
            v[1] = 1.0 + g.rng.below(64) as f32 / 64.0;
            v[3] = *g.rng.pick(&[
                -300.0, -128.0, -127.99, 127.995, 128.0, 130.0, 200.0, 1000.0,
            ]);
        }
        head.push(format!(
            "def c{k}, {}",
            v.iter()
                .map(|x| format!("{x:?}"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if profile.sm2() {
        head.push(format!(
            "defi {OUTPUT_LOOP}, {}, {}, {}, 0",
            1 + g.rng.below(4),
            1 + g.rng.below(2),
            g.rng.below(2)
        ));
        head.push(format!("defb b4, {}", g.rng.chance(50)));
    }
    let ints: [[i32; 4]; 4] = [0, 1, 2, 3].map(|k| {
        let count = if k == 3 && g.rng.chance(30) {
            // Past the 255 iterations loop and rep run at most.
            256 + g.rng.below(200) as i32
        } else {
            g.rng.below(5) as i32
        };
        [count, g.rng.below(12) as i32, g.rng.below(6) as i32 - 2, 0]
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
    let pos = if profile.vs3() { "o0" } else { "oPos" };
    init.push(format!("mov {pos}, c{POSITION_CONSTANT}"));
    // The outputs' first values (some left at their defaults until written).
    for (k, out) in Out::ALL.iter().enumerate() {
        if k < TEXCOORDS || g.rng.chance(50) {
            let reg = out.register(profile);
            let mask = if out.scalar() { ".x" } else { "" };
            init.push(format!("mov {reg}{mask}, c{}", OUTPUT_CONSTANTS + k));
        }
    }
    if profile.dynamic() {
        // p0 starts from two exact index constants.
        init.push("mov r9, c34".into());
        init.push("setp_gt p0, c33, r9".into());
    }
    // Subroutines first (their bodies are restricted and taint what they write).
    let subroutines = match profile {
        Profile::Vs11 => 0,
        Profile::Vs20 => g.rng.below(2),
        _ => g.rng.below(3),
    };
    let mut subs = Vec::new();
    for l in 0..subroutines {
        g.lines.clear();
        g.restricted = true;
        g.depth = 1;
        let n = 1 + g.rng.below(3);
        g.block(n, 1, Some(l), subroutines);
        g.lines.insert(0, format!("label l{l}"));
        g.lines.push("    ret".into());
        subs.append(&mut g.lines);
    }
    g.restricted = false;
    g.depth = 0;
    g.temps = [[Class::Exact; 4]; TEMPS];
    g.a0_set = [false; 4];
    g.lines.clear();
    let len = 4 + g.rng.below(12);
    g.block(len, 0, None, subroutines);
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
        ints,
        bools,
    }
}
