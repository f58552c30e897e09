//! The lifter: owns the `naga::Module` being built and the function under construction, with
//! the few verbs every lowering uses (`emit`, `push`, literals, loads and stores).
//!
//! Values are narrow: a [`Value`] is a scalar or a vector of 2–4 components, as wide as the
//! write mask of the instruction that computes it. Every expression and statement carries the
//! byte span of the D3D9 instruction it comes from.

use super::error::LiftError;
pub(super) use super::function::{
    ConstValue, FnBuilder, Frame, FrameKind, LoopCounter, LoopFrame, Value,
};
use super::interface::SamplerRead;
use super::options::{PixelShaderOptions, VertexShaderOptions};
use super::state::{IoMap, Ps1State, Registers, ResourceMap};
use crate::bytecode::{Instruction, Opcode, Program, TokenOffset};
use crate::rules::FloatMode;
use crate::signature::Signature;
use naga::{
    Block, Expression, Function, GlobalVariable, Handle, LocalVariable, Module, Scalar, Span,
    Statement, Type, TypeInner, VectorSize,
};
use std::collections::HashMap;

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

/// The instruction being lifted, for error messages.
#[derive(Debug, Clone, Copy)]
pub(super) struct At {
    pub index: usize,
    pub opcode: Opcode,
    pub offset: TokenOffset,
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
/// `outputs`/`inputs` for vertex shaders and `pixel_entry` for pixel shaders). It owns the
/// module under construction and the state of `state` and `function`; the lowering modules
/// add its verbs.
pub(super) struct Lifter<'a> {
    pub program: &'a Program,
    pub options: StageOptions<'a>,
    /// How D3D9 float arithmetic is emulated (from the options).
    pub float_mode: FloatMode,
    pub module: Module,
    pub ty: Types,
    /// The function under construction.
    pub f: FnBuilder,
    pub at: At,
    /// The byte span of the instruction being lifted.
    pub span: Span,
    pub registers: Registers,
    pub io: IoMap,
    pub resources: ResourceMap,
    /// The naga function of each subroutine label.
    pub labels: HashMap<u32, Handle<Function>>,
    pub ps1: Ps1State,
}

impl<'a> Lifter<'a> {
    /// A lifter for `program` as the device `caps` runs it (see [`Registers::new`]).
    pub fn new(
        program: &'a Program,
        options: StageOptions<'a>,
        caps: &crate::check::DeviceCaps,
    ) -> Lifter<'a> {
        let mut module = Module::default();
        let ty = Types::new(&mut module);
        let vertex_fetches = match options {
            StageOptions::Vertex(o) => o.input_fetches.as_deref(),
            StageOptions::Pixel(_) => None,
        };
        Lifter {
            program,
            options,
            float_mode: options.float_mode(),
            module,
            ty,
            f: FnBuilder::new("main"),
            at: At {
                index: 0,
                opcode: Opcode::Nop,
                offset: TokenOffset(0),
            },
            span: Span::UNDEFINED,
            registers: Registers::new(program, caps, vertex_fetches),
            io: IoMap {
                signature: Signature::of(program),
                input_values: HashMap::new(),
            },
            resources: ResourceMap::default(),
            labels: HashMap::new(),
            ps1: Ps1State::default(),
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

    /// How sampler `s#n` of this stage's options reads its texture (`Color` past the end).
    pub fn options_sampler_read(&self, n: u32) -> SamplerRead {
        let reads = match self.options {
            StageOptions::Pixel(o) => &o.sampler_reads,
            StageOptions::Vertex(o) => &o.sampler_reads,
        };
        reads.get(n as usize).copied().unwrap_or_default()
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

    /// A new `u32` argument of the function being built, bound to `builtin`; its value.
    pub(super) fn builtin_argument(
        &mut self,
        name: &str,
        builtin: naga::BuiltIn,
    ) -> Handle<Expression> {
        let index = self.f.function.arguments.len() as u32;
        let u32_ty = self.ty.u32;
        self.f.function.arguments.push(naga::FunctionArgument {
            name: Some(name.into()),
            ty: u32_ty,
            binding: Some(naga::Binding::BuiltIn(builtin)),
        });
        self.emit(Expression::FunctionArgument(index))
    }

    /// Append an expression with the current instruction's span and cover it with an `Emit`
    /// (unless naga treats it as emitted at function start). Consecutive expressions share
    /// one `Emit`.
    ///
    /// A constant expression whose value is not finite is emitted as that value, in a form
    /// WGSL does not evaluate at shader creation (see `constness`).
    pub fn emit(&mut self, expr: Expression) -> Handle<Expression> {
        let value = self.const_value(&expr);
        if let Some(ConstValue::Float(v)) = &value {
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
