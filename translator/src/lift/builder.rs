//! The lifter: owns the `naga::Module` being built and the function under construction, with
//! the few verbs every lowering uses (`emit`, `push`, literals, loads and stores).

use super::error::LiftError;
use super::VertexShaderOptions;
use crate::bytecode::{Instruction, Opcode, Program, TextureType, TokenOffset};
use naga::{
    Block, Expression, Function, GlobalVariable, Handle, Literal, LocalVariable, Module, Scalar,
    Span, Statement, Type, TypeInner, VectorSize,
};
use std::collections::{BTreeMap, HashMap};

/// Type handles used everywhere.
pub(super) struct Types {
    pub f32: Handle<Type>,
    pub i32: Handle<Type>,
    pub u32: Handle<Type>,
    pub vec4f: Handle<Type>,
    pub vec4i: Handle<Type>,
    pub vec4b: Handle<Type>,
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
            vec4f: t(vec4(Scalar::F32)),
            vec4i: t(vec4(Scalar::I32)),
            vec4b: t(vec4(Scalar::BOOL)),
        }
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
    /// one value for scalars, four for vectors.
    pub known: HashMap<Handle<Expression>, Vec<f32>>,
    pub globals: HashMap<Handle<GlobalVariable>, Handle<Expression>>,
    pub loops_made: u32,
    pub typifier: naga::front::Typifier,
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
            typifier: naga::front::Typifier::new(),
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

/// The vertex-shader lifter.
pub(super) struct Lifter<'a> {
    pub program: &'a Program,
    pub options: &'a VertexShaderOptions,
    pub module: Module,
    pub ty: Types,
    pub f: FnBuilder,
    pub at: At,
    pub defs: Defs,
    pub samplers: BTreeMap<u32, TextureType>,
    pub labels: HashMap<u32, Handle<Function>>,
    pub globals: HashMap<super::registers::RegKey, Handle<GlobalVariable>>,
    /// `(base, count)` of relative float-constant reads.
    pub relative_reads: Vec<(u32, u32)>,
    /// Float constant registers addressable (256 or 8192).
    pub float_registers: u32,
    /// `i#` registers: 16, or 2048 in software vertex processing.
    pub int_registers: u32,
    /// `b#` registers: 16, or 2048 in software vertex processing.
    pub bool_registers: u32,
}

impl<'a> Lifter<'a> {
    pub fn new(program: &'a Program, options: &'a VertexShaderOptions) -> Lifter<'a> {
        let mut module = Module::default();
        let ty = Types::new(&mut module);
        Lifter {
            program,
            options,
            module,
            ty,
            f: FnBuilder::new("main"),
            at: At {
                index: 0,
                opcode: Opcode::Nop,
                offset: TokenOffset(0),
            },
            defs: Defs::default(),
            samplers: BTreeMap::new(),
            labels: HashMap::new(),
            globals: HashMap::new(),
            relative_reads: Vec::new(),
            float_registers: if options.software_vertex_processing {
                super::interface::SW_FLOAT_CONSTANTS
            } else {
                super::interface::HW_FLOAT_CONSTANTS
            },
            int_registers: if options.software_vertex_processing {
                super::interface::SW_INT_CONSTANTS
            } else {
                super::interface::INT_CONSTANTS
            },
            bool_registers: if options.software_vertex_processing {
                super::interface::SW_BOOL_CONSTANTS
            } else {
                super::interface::BOOL_CONSTANTS
            },
        }
    }

    /// Point errors at `inst`.
    pub fn set_at(&mut self, index: usize, inst: &Instruction) {
        self.at = At {
            index,
            opcode: inst.opcode,
            offset: inst.offset,
        };
    }

    /// An `Invalid` error at the current instruction.
    pub fn invalid(&self, what: impl Into<String>) -> LiftError {
        LiftError::Invalid {
            index: self.at.index,
            opcode: self.at.opcode,
            offset: self.at.offset,
            what: what.into(),
        }
    }

    /// An `Unsupported` error at the current instruction.
    pub fn unsupported(&self, what: impl Into<String>) -> LiftError {
        LiftError::Unsupported {
            index: self.at.index,
            opcode: self.at.opcode,
            offset: self.at.offset,
            what: what.into(),
        }
    }

    /// A (deduplicated) type handle.
    pub fn type_of(&mut self, inner: TypeInner) -> Handle<Type> {
        self.module
            .types
            .insert(Type { name: None, inner }, Span::UNDEFINED)
    }

    /// Append an expression and cover it with an `Emit` (unless naga treats it as emitted
    /// at function start).
    pub fn emit(&mut self, expr: Expression) -> Handle<Expression> {
        let pre = expr.needs_pre_emit();
        let h = self.f.function.expressions.append(expr, Span::UNDEFINED);
        if !pre {
            self.push(Statement::Emit(naga::Range::new_from_bounds(h, h)));
        }
        h
    }

    /// Append a statement to the innermost open block.
    pub fn push(&mut self, stmt: Statement) {
        if let Some(frame) = self.f.frames.last_mut() {
            frame.block.push(stmt, Span::UNDEFINED);
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
            self.f.frames.pop()
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
            Span::UNDEFINED,
        );
        self.emit(Expression::LocalVariable(lv))
    }

    pub fn lit_f32(&mut self, v: f32) -> Handle<Expression> {
        if v.is_finite() {
            let h = self.emit(Expression::Literal(Literal::F32(v)));
            self.f.known.insert(h, vec![v]);
            h
        } else {
            // naga rejects non-finite literals: spell them as a bitcast.
            let bits = self.emit(Expression::Literal(Literal::U32(v.to_bits())));
            self.emit(Expression::As {
                expr: bits,
                kind: naga::ScalarKind::Float,
                convert: None,
            })
        }
    }

    pub fn lit_i32(&mut self, v: i32) -> Handle<Expression> {
        self.emit(Expression::Literal(Literal::I32(v)))
    }

    pub fn lit_u32(&mut self, v: u32) -> Handle<Expression> {
        self.emit(Expression::Literal(Literal::U32(v)))
    }

    pub fn lit_bool(&mut self, v: bool) -> Handle<Expression> {
        self.emit(Expression::Literal(Literal::Bool(v)))
    }

    /// A `vec4<f32>` whose value is known (a def'd constant, a literal).
    pub fn const_vec4(&mut self, v: [f32; 4]) -> Handle<Expression> {
        if v.iter().all(|x| x.to_bits() == v[0].to_bits()) {
            let s = self.lit_f32(v[0]);
            let h = self.splat(s);
            self.f.known.insert(h, v.to_vec());
            return h;
        }
        let components = v.iter().map(|&x| self.lit_f32(x)).collect();
        let h = self.emit(Expression::Compose {
            ty: self.ty.vec4f,
            components,
        });
        self.f.known.insert(h, v.to_vec());
        h
    }

    /// A constant `vec4<bool>`.
    pub fn const_bvec4(&mut self, v: [bool; 4]) -> Handle<Expression> {
        let components = v.iter().map(|&x| self.lit_bool(x)).collect();
        self.emit(Expression::Compose {
            ty: self.ty.vec4b,
            components,
        })
    }

    /// `vec4(s)`.
    pub fn splat(&mut self, s: Handle<Expression>) -> Handle<Expression> {
        let known = self.f.known.get(&s).cloned();
        let h = self.emit(Expression::Splat {
            size: VectorSize::Quad,
            value: s,
        });
        if let Some(k) = known {
            if let Some(&x) = k.first() {
                self.f.known.insert(h, vec![x; 4]);
            }
        }
        h
    }

    /// `v[i]` of a vector value.
    pub fn comp(&mut self, v: Handle<Expression>, i: u32) -> Handle<Expression> {
        let known = self
            .f
            .known
            .get(&v)
            .and_then(|k| k.get(i as usize).copied());
        let h = self.emit(Expression::AccessIndex { base: v, index: i });
        if let Some(x) = known {
            self.f.known.insert(h, vec![x]);
        }
        h
    }

    pub fn compose4(&mut self, c: [Handle<Expression>; 4]) -> Handle<Expression> {
        self.emit(Expression::Compose {
            ty: self.ty.vec4f,
            components: c.to_vec(),
        })
    }

    pub fn bin(
        &mut self,
        op: naga::BinaryOperator,
        left: Handle<Expression>,
        right: Handle<Expression>,
    ) -> Handle<Expression> {
        self.emit(Expression::Binary { op, left, right })
    }

    pub fn math1(
        &mut self,
        fun: naga::MathFunction,
        arg: Handle<Expression>,
    ) -> Handle<Expression> {
        self.emit(Expression::Math {
            fun,
            arg,
            arg1: None,
            arg2: None,
            arg3: None,
        })
    }

    pub fn math2(
        &mut self,
        fun: naga::MathFunction,
        arg: Handle<Expression>,
        arg1: Handle<Expression>,
    ) -> Handle<Expression> {
        self.emit(Expression::Math {
            fun,
            arg,
            arg1: Some(arg1),
            arg2: None,
            arg3: None,
        })
    }

    pub fn math3(
        &mut self,
        fun: naga::MathFunction,
        arg: Handle<Expression>,
        arg1: Handle<Expression>,
        arg2: Handle<Expression>,
    ) -> Handle<Expression> {
        self.emit(Expression::Math {
            fun,
            arg,
            arg1: Some(arg1),
            arg2: Some(arg2),
            arg3: None,
        })
    }

    /// `select(reject, accept, condition)`.
    pub fn select(
        &mut self,
        condition: Handle<Expression>,
        accept: Handle<Expression>,
        reject: Handle<Expression>,
    ) -> Handle<Expression> {
        self.emit(Expression::Select {
            condition,
            accept,
            reject,
        })
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

    /// A swizzle of a `vec4`; no expression for the identity.
    pub fn swizzle4(&mut self, v: Handle<Expression>, pattern: [u8; 4]) -> Handle<Expression> {
        if pattern == [0, 1, 2, 3] {
            return v;
        }
        let known = self.f.known.get(&v).cloned();
        let comp = |c: u8| match c & 3 {
            0 => naga::SwizzleComponent::X,
            1 => naga::SwizzleComponent::Y,
            2 => naga::SwizzleComponent::Z,
            _ => naga::SwizzleComponent::W,
        };
        let h = self.emit(Expression::Swizzle {
            size: VectorSize::Quad,
            vector: v,
            pattern: pattern.map(comp),
        });
        if let Some(k) = known {
            if k.len() == 4 {
                let v: Vec<f32> = pattern.iter().map(|&c| k[(c & 3) as usize]).collect();
                self.f.known.insert(h, v);
            }
        }
        h
    }

    /// The first `n` (2 or 3) components of a `vec4`.
    pub fn truncate(&mut self, v: Handle<Expression>, n: u8) -> Handle<Expression> {
        let (size, pattern) = match n {
            2 => (VectorSize::Bi, [0, 1, 0, 0]),
            _ => (VectorSize::Tri, [0, 1, 2, 0]),
        };
        let comp = |c: u8| match c {
            0 => naga::SwizzleComponent::X,
            1 => naga::SwizzleComponent::Y,
            _ => naga::SwizzleComponent::Z,
        };
        self.emit(Expression::Swizzle {
            size,
            vector: v,
            pattern: pattern.map(comp),
        })
    }

    /// The known value of an expression, if any.
    pub fn known(&self, h: Handle<Expression>) -> Option<&[f32]> {
        self.f.known.get(&h).map(Vec::as_slice)
    }
}
