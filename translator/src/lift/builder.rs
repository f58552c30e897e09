//! The lifter: owns the `naga::Module` being built and the function under construction, with
//! the few verbs every lowering uses (`emit`, `push`, literals, loads and stores).
//!
//! Values are narrow: a [`Value`] is a scalar or a vector of 2–4 components, as wide as the
//! write mask of the instruction that computes it. Every expression and statement carries the
//! byte span of the D3D9 instruction it comes from.

use super::error::LiftError;
use super::{FloatMode, PixelShaderOptions, VertexShaderOptions};
use crate::bytecode::{Instruction, Opcode, Program, RegisterFile, TextureType, TokenOffset};
use crate::signature::Signature;
use naga::{
    Block, Expression, Function, GlobalVariable, Handle, LocalVariable, Module, Scalar, Span,
    Statement, Type, TypeInner, VectorSize,
};
use std::collections::{BTreeMap, HashMap};

/// A computed value: an expression and its width (1 = scalar, 2–4 = vector).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Value {
    pub h: Handle<Expression>,
    pub n: u8,
}

/// The components of a `vec4` register an instruction computes, in order (from its write
/// mask): `lanes.len()` is the width of every value the instruction computes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Lanes {
    c: [u8; 4],
    n: u8,
}

impl Lanes {
    /// The written components of a write mask.
    pub fn of_mask(mask: crate::bytecode::WriteMask) -> Lanes {
        let mut l = Lanes { c: [0; 4], n: 0 };
        for c in 0..4u8 {
            if mask.contains(usize::from(c)) {
                l.c[usize::from(l.n)] = c;
                l.n += 1;
            }
        }
        l
    }

    /// Exactly these components.
    pub fn of(components: &[u8]) -> Lanes {
        let mut l = Lanes { c: [0; 4], n: 0 };
        for &c in components.iter().take(4) {
            l.c[usize::from(l.n)] = c & 3;
            l.n += 1;
        }
        l
    }

    /// `.xyzw`.
    pub const ALL: Lanes = Lanes {
        c: [0, 1, 2, 3],
        n: 4,
    };

    pub fn as_slice(&self) -> &[u8] {
        &self.c[..usize::from(self.n)]
    }

    pub fn len(&self) -> u8 {
        self.n
    }

    pub fn is_empty(&self) -> bool {
        self.n == 0
    }
}

/// Type handles used everywhere, and vector types made on first use.
pub(super) struct Types {
    pub f32: Handle<Type>,
    pub i32: Handle<Type>,
    pub u32: Handle<Type>,
    pub bool: Handle<Type>,
    pub vec4f: Handle<Type>,
    pub vec4i: Handle<Type>,
    pub vec4b: Handle<Type>,
    /// `vec2`/`vec3` of f32, i32, bool (index: width - 2).
    narrow: [[Option<Handle<Type>>; 2]; 3],
}

impl Types {
    fn new(module: &mut Module) -> Types {
        let mut t = |inner| {
            module
                .types
                .insert(Type { name: None, inner }, Span::UNDEFINED)
        };
        let vec4 = |scalar| TypeInner::Vector {
            size: VectorSize::Quad,
            scalar,
        };
        Types {
            f32: t(TypeInner::Scalar(Scalar::F32)),
            i32: t(TypeInner::Scalar(Scalar::I32)),
            u32: t(TypeInner::Scalar(Scalar::U32)),
            bool: t(TypeInner::Scalar(Scalar::BOOL)),
            vec4f: t(vec4(Scalar::F32)),
            vec4i: t(vec4(Scalar::I32)),
            vec4b: t(vec4(Scalar::BOOL)),
            narrow: [[None; 2]; 3],
        }
    }
}

/// `VectorSize` of a width 2–4.
pub(super) fn vector_size(n: u8) -> VectorSize {
    match n {
        2 => VectorSize::Bi,
        3 => VectorSize::Tri,
        _ => VectorSize::Quad,
    }
}

/// naga's name of component `c`.
pub(super) fn swizzle_component(c: u8) -> naga::SwizzleComponent {
    match c & 3 {
        0 => naga::SwizzleComponent::X,
        1 => naga::SwizzleComponent::Y,
        2 => naga::SwizzleComponent::Z,
        _ => naga::SwizzleComponent::W,
    }
}

/// What an open block belongs to.
pub(super) enum FrameKind {
    /// A function body.
    Body,
    /// `if`: the accept block while `accept` is `None`, then the reject block.
    If {
        condition: Handle<Expression>,
        accept: Option<Block>,
    },
    /// `loop` / `rep` body.
    Loop(LoopFrame),
    /// A block built aside (a loop's continuing block).
    Aside,
}

/// The state of one open `loop` or `rep`.
pub(super) struct LoopFrame {
    pub opcode: Opcode,
    /// Iterations done so far (a local's pointer).
    pub counter: Handle<Expression>,
    /// For `loop`: this loop's aL, its step, and the enclosing aL to restore on exit.
    pub al: Option<LoopCounter>,
}

/// aL bookkeeping of one `loop`.
pub(super) struct LoopCounter {
    /// This loop's aL (a local's pointer).
    pub value: Handle<Expression>,
    pub step: Handle<Expression>,
    /// The enclosing aL, restored when the loop ends (a local's pointer).
    pub saved: Handle<Expression>,
}

pub(super) struct Frame {
    pub kind: FrameKind,
    pub block: Block,
}

/// The function under construction.
pub(super) struct FnBuilder {
    pub function: Function,
    pub frames: Vec<Frame>,
    /// Expressions whose value is known at translation time (def'd constants, literals):
    /// one value per component.
    pub known: HashMap<Handle<Expression>, Vec<f32>>,
    pub globals: HashMap<Handle<GlobalVariable>, Handle<Expression>>,
    pub loops_made: u32,
    /// Which values are provably finite (`finite`).
    pub finite: super::finite::Finiteness,
    /// Register values remembered in straight-line code (`loads`), with the depth of the
    /// block that emitted them.
    pub loads: HashMap<super::loads::Loaded, (Handle<Expression>, usize)>,
    /// The values of the expressions WGSL evaluates at shader creation (`constness`).
    pub consts: HashMap<Handle<Expression>, super::constness::ConstValue>,
}

impl FnBuilder {
    pub fn new(name: &str) -> FnBuilder {
        FnBuilder {
            function: Function {
                name: Some(name.to_string()),
                ..Function::default()
            },
            frames: vec![Frame {
                kind: FrameKind::Body,
                block: Block::new(),
            }],
            known: HashMap::new(),
            globals: HashMap::new(),
            loops_made: 0,
            finite: super::finite::Finiteness::default(),
            loads: HashMap::new(),
            consts: HashMap::new(),
        }
    }
}

/// The instruction being lifted, for error messages.
#[derive(Debug, Clone, Copy)]
pub(super) struct At {
    pub index: usize,
    pub opcode: Opcode,
    pub offset: TokenOffset,
}

/// Constants the shader defines itself.
#[derive(Default)]
pub(super) struct Defs {
    pub floats: BTreeMap<u32, [u32; 4]>,
    pub ints: BTreeMap<u32, [i32; 4]>,
    pub bools: BTreeMap<u32, bool>,
}

/// The byte span of instruction `index`: from its instruction token to the next one's.
pub(super) fn instruction_span(program: &Program, index: usize) -> Span {
    let Some(inst) = program.instructions.get(index) else {
        return Span::UNDEFINED;
    };
    let start = inst.offset.0.saturating_mul(4);
    let end = program
        .instructions
        .get(index + 1)
        .map_or(start.saturating_add(4), |next| {
            next.offset.0.saturating_mul(4)
        });
    Span::new(start, end.max(start.saturating_add(4)))
}

/// The options of the stage being translated.
#[derive(Clone, Copy)]
pub(super) enum StageOptions<'a> {
    Vertex(&'a VertexShaderOptions),
    Pixel(&'a PixelShaderOptions),
}

impl StageOptions<'_> {
    pub fn float_mode(self) -> FloatMode {
        match self {
            StageOptions::Vertex(o) => o.float_mode,
            StageOptions::Pixel(o) => o.float_mode,
        }
    }
}

/// The shader lifter (both stages: the stage-specific parts are the entry points, in
/// `outputs`/`inputs` for vertex shaders and `pixel_entry` for pixel shaders).
pub(super) struct Lifter<'a> {
    pub program: &'a Program,
    pub options: StageOptions<'a>,
    /// How D3D9 float arithmetic is emulated (from the options).
    pub float_mode: FloatMode,
    /// The shader's semantics, computed once.
    pub signature: Signature,
    /// Software vertex processing: 8192 `c#`, 2048 `i#`/`b#`, constants in storage.
    pub software: bool,
    pub module: Module,
    pub ty: Types,
    pub f: FnBuilder,
    pub at: At,
    /// The byte span of the instruction being lifted.
    pub span: Span,
    pub defs: Defs,
    pub samplers: BTreeMap<u32, TextureType>,
    pub labels: HashMap<u32, Handle<Function>>,
    pub globals: HashMap<super::globals::RegKey, Handle<GlobalVariable>>,
    /// The converted value of each input register (`v#`, and ps_2_x `t#`) when `main` is
    /// lifted into the entry point (read directly instead of through a register).
    pub input_values: HashMap<(RegisterFile, u32), Handle<Expression>>,
    /// Input registers `v#` (16 in vertex shaders, 10 in ps_3_0, 2 before).
    pub input_registers: u32,
    /// `v#` registers fetched from integer or normalised declaration types (finite values).
    pub finite_inputs: std::collections::BTreeSet<u32>,
    /// Whether any `v#` read is relative (then `v#` is an array, else one variable each).
    pub relative_inputs: bool,
    /// Whether any vs_3_0 `o#` write is relative (then `o#` is an array).
    pub relative_outputs: bool,
    /// `(base, count)` of relative float-constant reads.
    pub relative_reads: Vec<(u32, u32)>,
    /// Float constant registers addressable (256 or 8192).
    pub float_registers: u32,
    /// `i#` registers: 16, or 2048 in software vertex processing.
    pub int_registers: u32,
    /// `b#` registers: 16, or 2048 in software vertex processing.
    pub bool_registers: u32,
    /// vs_3_0 `o#` registers (12).
    pub output_registers: u32,
    /// Writes held back while a co-issued pair is lifted (`ps1`): both instructions read
    /// their sources before either writes.
    pub deferred: Option<
        Vec<(
            crate::bytecode::DstParam,
            Value,
            Option<crate::bytecode::SrcParam>,
        )>,
    >,
    /// ps_1_x: the interpolated texture coordinate of each `t#` (ps_1_x `main` is always
    /// lifted into the entry point, with no flow control, so these values reach every
    /// instruction).
    pub ps1_coords: HashMap<u32, Handle<Expression>>,
    /// ps_1_1–1_3: the dot products of the pending `texm3x2pad`/`texm3x3pad` rows, with the
    /// `t#` each was computed for.
    pub ps1_pads: Vec<(u32, Handle<Expression>)>,
}

impl<'a> Lifter<'a> {
    /// A lifter for `program` as the device `caps` runs it: register counts come from the
    /// register-file table (`bytecode::file_rule`) for that device.
    pub fn new(
        program: &'a Program,
        options: StageOptions<'a>,
        caps: &crate::check::DeviceCaps,
    ) -> Lifter<'a> {
        use crate::bytecode::{file_rule, float_constants, software_limits};
        let mut module = Module::default();
        let ty = Types::new(&mut module);
        let vp = caps.vertex_processing;
        let version = program.version;
        let software = software_limits(version, vp);
        let count = |file| {
            file_rule(version, file, vp).map_or(0, |r| r.count.on_device(|c| caps.count_cap(c)))
        };
        let vertex_fetches = match options {
            StageOptions::Vertex(o) => o.input_fetches.as_deref(),
            StageOptions::Pixel(_) => None,
        };
        Lifter {
            program,
            options,
            float_mode: options.float_mode(),
            signature: Signature::of(program),
            software,
            module,
            ty,
            f: FnBuilder::new("main"),
            at: At {
                index: 0,
                opcode: Opcode::Nop,
                offset: TokenOffset(0),
            },
            span: Span::UNDEFINED,
            defs: Defs::default(),
            samplers: BTreeMap::new(),
            labels: HashMap::new(),
            globals: HashMap::new(),
            input_values: HashMap::new(),
            finite_inputs: vertex_fetches
                .into_iter()
                .flatten()
                .filter(|f| match f.source {
                    crate::decl::FetchSource::Attribute { format, .. } => {
                        !super::finite::float_format(format)
                    }
                    // A missing element reads the zero-initialised register.
                    crate::decl::FetchSource::Missing => true,
                })
                .map(|f| f.register)
                .collect(),
            relative_inputs: program.instructions.iter().any(|i| {
                i.src
                    .iter()
                    .any(|s| s.reg.file == RegisterFile::Input && s.reg.relative.is_some())
            }),
            relative_outputs: program.instructions.iter().any(|i| {
                i.dst
                    .is_some_and(|d| d.reg.file == RegisterFile::Output && d.reg.relative.is_some())
            }),
            relative_reads: Vec::new(),
            float_registers: float_constants(version, vp).on_device(|c| caps.count_cap(c)),
            int_registers: count(RegisterFile::ConstInt),
            bool_registers: count(RegisterFile::ConstBool),
            output_registers: count(RegisterFile::Output),
            input_registers: count(RegisterFile::Input),
            deferred: None,
            ps1_coords: HashMap::new(),
            ps1_pads: Vec::new(),
        }
    }

    /// The vertex-shader options (`None` when translating a pixel shader).
    pub fn vertex_options(&self) -> Option<&'a VertexShaderOptions> {
        match self.options {
            StageOptions::Vertex(o) => Some(o),
            StageOptions::Pixel(_) => None,
        }
    }

    /// The pixel-shader options (`None` when translating a vertex shader).
    pub fn pixel_options(&self) -> Option<&'a PixelShaderOptions> {
        match self.options {
            StageOptions::Pixel(o) => Some(o),
            StageOptions::Vertex(_) => None,
        }
    }

    /// Point errors and spans at `inst`, instruction `index` of the program.
    pub fn set_at(&mut self, index: usize, inst: &Instruction) {
        self.at = At {
            index,
            opcode: inst.opcode,
            offset: inst.offset,
        };
        self.span = instruction_span(self.program, index);
    }

    /// A translator bug at the current instruction: the checked program broke an assumption
    /// the lifter makes (a missing operand, an open block). Never a D3D9 rule: `check` owns
    /// those.
    pub fn internal(&self, what: impl std::fmt::Display) -> LiftError {
        LiftError::Internal(format!(
            "instruction {} ({}) at token {}: {what}",
            self.at.index, self.at.opcode, self.at.offset
        ))
    }

    /// An `Unsupported` error at the current instruction.
    pub fn unsupported(&self, feature: super::error::Feature) -> LiftError {
        LiftError::Unsupported {
            index: self.at.index,
            opcode: self.at.opcode,
            offset: self.at.offset,
            feature,
        }
    }

    /// A (deduplicated) type handle.
    pub fn type_of(&mut self, inner: TypeInner) -> Handle<Type> {
        self.module
            .types
            .insert(Type { name: None, inner }, Span::UNDEFINED)
    }

    /// The type of a float (`kind` 0), int (1) or bool (2) value of width `n`.
    pub fn value_type(&mut self, kind: usize, n: u8) -> Handle<Type> {
        let scalar = [Scalar::F32, Scalar::I32, Scalar::BOOL][kind.min(2)];
        match n {
            0 | 1 => [self.ty.f32, self.ty.i32, self.ty.bool][kind.min(2)],
            2 | 3 => {
                let slot = &mut self.ty.narrow[kind.min(2)][usize::from(n - 2)];
                if let Some(h) = *slot {
                    return h;
                }
                let h = self.module.types.insert(
                    Type {
                        name: None,
                        inner: TypeInner::Vector {
                            size: vector_size(n),
                            scalar,
                        },
                    },
                    Span::UNDEFINED,
                );
                self.ty.narrow[kind.min(2)][usize::from(n - 2)] = Some(h);
                h
            }
            _ => [self.ty.vec4f, self.ty.vec4i, self.ty.vec4b][kind.min(2)],
        }
    }

    /// Append an expression with the current instruction's span and cover it with an `Emit`
    /// (unless naga treats it as emitted at function start). Consecutive expressions share
    /// one `Emit`.
    ///
    /// A constant expression whose value is not finite is emitted as that value, in a form
    /// WGSL does not evaluate at shader creation (see `constness`).
    pub fn emit(&mut self, expr: Expression) -> Handle<Expression> {
        let value = self.const_value(&expr);
        if let Some(super::constness::ConstValue::Float(v)) = &value {
            if v.iter().any(|x| !x.is_finite()) {
                return self.opaque_floats(v.clone());
            }
        }
        let pre = expr.needs_pre_emit();
        let h = self.f.function.expressions.append(expr, self.span);
        if let Some(v) = value {
            self.f.consts.insert(h, v);
        }
        if !pre {
            if let Some(frame) = self.f.frames.last_mut() {
                if let Some(Statement::Emit(range)) = frame.block.last_mut() {
                    if let Some((first, last)) = range.first_and_last() {
                        if last.index() + 1 == h.index() {
                            *range = naga::Range::new_from_bounds(first, h);
                            return h;
                        }
                    }
                }
            }
            self.push(Statement::Emit(naga::Range::new_from_bounds(h, h)));
        }
        h
    }

    /// A float value (1–4 components, at least one not finite) WGSL does not evaluate early:
    /// non-finite components as bit-cast literals.
    fn opaque_floats(&mut self, v: Vec<f32>) -> Handle<Expression> {
        let parts: Vec<Handle<Expression>> = v.iter().take(4).map(|&x| self.lit_f32(x)).collect();
        match parts.as_slice() {
            [one] => *one,
            _ => {
                let ty = self.value_type(0, parts.len() as u8);
                self.emit(Expression::Compose {
                    ty,
                    components: parts,
                })
            }
        }
    }

    /// Append a statement, with the current instruction's span, to the innermost open block.
    pub fn push(&mut self, stmt: Statement) {
        if let Some(frame) = self.f.frames.last_mut() {
            frame.block.push(stmt, self.span);
        }
    }

    /// Open a block (an `if` arm, a loop body, an aside block).
    pub fn open(&mut self, kind: FrameKind) {
        self.f.frames.push(Frame {
            kind,
            block: Block::new(),
        });
    }

    /// Close the innermost block (never the function body).
    pub fn close(&mut self) -> Option<Frame> {
        if self.f.frames.len() > 1 {
            let frame = self.f.frames.pop();
            self.forget_closed_blocks();
            frame
        } else {
            None
        }
    }

    /// Build a block aside with `build`, returning it.
    pub fn aside(
        &mut self,
        build: impl FnOnce(&mut Self) -> Result<(), LiftError>,
    ) -> Result<Block, LiftError> {
        self.open(FrameKind::Aside);
        let result = build(self);
        let block = self.close().map(|f| f.block).unwrap_or_default();
        result.map(|()| block)
    }

    /// The expression of a global variable in the current function.
    pub fn global(&mut self, g: Handle<GlobalVariable>) -> Handle<Expression> {
        if let Some(&h) = self.f.globals.get(&g) {
            return h;
        }
        let h = self.emit(Expression::GlobalVariable(g));
        self.f.globals.insert(g, h);
        h
    }

    /// A new local variable of the current function.
    pub fn local(&mut self, name: String, ty: Handle<Type>) -> Handle<Expression> {
        let lv = self.f.function.local_variables.append(
            LocalVariable {
                name: Some(name),
                ty,
                init: None,
            },
            self.span,
        );
        self.emit(Expression::LocalVariable(lv))
    }

    pub fn load(&mut self, pointer: Handle<Expression>) -> Handle<Expression> {
        self.emit(Expression::Load { pointer })
    }

    pub fn store(&mut self, pointer: Handle<Expression>, value: Handle<Expression>) {
        self.push(Statement::Store { pointer, value });
    }

    /// `As` conversion (`convert: Some(4)`) or bitcast (`None`).
    pub fn cast(
        &mut self,
        expr: Handle<Expression>,
        kind: naga::ScalarKind,
        convert: Option<u8>,
    ) -> Handle<Expression> {
        self.emit(Expression::As {
            expr,
            kind,
            convert,
        })
    }

    /// The first `n` (2 or 3) components of a `vec4`.
    pub fn truncate(&mut self, v: Handle<Expression>, n: u8) -> Handle<Expression> {
        let pattern: &[u8] = if n == 2 { &[0, 1] } else { &[0, 1, 2] };
        self.pick(Value { h: v, n: 4 }, pattern).h
    }

    /// The known value of an expression, if any.
    pub fn known(&self, h: Handle<Expression>) -> Option<&[f32]> {
        self.f.known.get(&h).map(Vec::as_slice)
    }
}
