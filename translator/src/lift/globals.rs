//! D3D9 register files as naga globals: r#, a0, aL and p0 as zero-initialised private
//! variables created on first use, v# and o# as private arrays with a spare element, the fixed
//! pre-3.0 outputs initialised to their semantics' defaults, and c#/i#/b# as uniform (or, in
//! software vertex processing, storage) bindings.
//!
//! Registers are module-level `var<private>` rather than function locals because subroutines
//! (`label`/`call`) become naga functions that share the register file with `main`.

use super::builder::Lifter;
use super::error::LiftError;
use super::interface::{
    BOOL_CONSTANTS_BINDING, FLOAT_CONSTANTS_BINDING, INT_CONSTANTS_BINDING, PS_CONSTANTS_GROUP,
    VS_CONSTANTS_GROUP,
};
use super::state::RegKey;
use crate::bytecode::{Register, RegisterFile, Stage};
use naga::{AddressSpace, ArraySize, Expression, GlobalVariable, Handle, Span, TypeInner};
use std::num::NonZeroU32;

impl Lifter<'_> {
    /// A private global initialised by `init` (a constant expression built by the caller).
    fn private_global(
        &mut self,
        key: RegKey,
        name: &str,
        ty: Handle<naga::Type>,
        init: Option<Handle<Expression>>,
    ) -> Handle<GlobalVariable> {
        if let Some(&g) = self.resources.globals.get(&key) {
            return g;
        }
        let init = init.unwrap_or_else(|| {
            self.module
                .global_expressions
                .append(Expression::ZeroValue(ty), Span::UNDEFINED)
        });
        let g = self.module.global_variables.append(
            GlobalVariable {
                name: Some(name.to_string()),
                space: AddressSpace::Private,
                binding: None,
                ty,
                init: Some(init),
                memory_decorations: naga::MemoryDecorations::empty(),
            },
            self.span,
        );
        self.resources.globals.insert(key, g);
        g
    }

    /// A resource global (`uniform`, `storage`, `handle`).
    pub(super) fn resource_global(
        &mut self,
        key: RegKey,
        name: &str,
        ty: Handle<naga::Type>,
        space: AddressSpace,
        group: u32,
        binding: u32,
    ) -> Handle<GlobalVariable> {
        if let Some(&g) = self.resources.globals.get(&key) {
            return g;
        }
        let g = self.module.global_variables.append(
            GlobalVariable {
                name: Some(name.to_string()),
                space,
                binding: Some(naga::ResourceBinding { group, binding }),
                ty,
                init: None,
                memory_decorations: naga::MemoryDecorations::empty(),
            },
            self.span,
        );
        self.resources.globals.insert(key, g);
        g
    }

    /// A `vec4<f32>` array type of `n` elements.
    pub(super) fn vec4_array(&mut self, n: u32) -> Handle<naga::Type> {
        let base = self.ty.vec4f;
        self.array_of(base, n)
    }

    pub(super) fn array_of(&mut self, base: Handle<naga::Type>, n: u32) -> Handle<naga::Type> {
        let size = NonZeroU32::new(n).map_or(ArraySize::Dynamic, ArraySize::Constant);
        self.type_of(TypeInner::Array {
            base,
            size,
            stride: 16,
        })
    }

    /// A constant `vec4<f32>` in the global expression arena.
    pub(super) fn global_vec4(&mut self, v: [f32; 4]) -> Handle<Expression> {
        let ge = &mut self.module.global_expressions;
        let components = v
            .iter()
            .map(|&x| ge.append(Expression::Literal(naga::Literal::F32(x)), Span::UNDEFINED))
            .collect();
        ge.append(
            Expression::Compose {
                ty: self.ty.vec4f,
                components,
            },
            Span::UNDEFINED,
        )
    }

    /// The `v` array global.
    pub(super) fn inputs_global(&mut self) -> Handle<GlobalVariable> {
        let ty = self.vec4_array(self.registers.input_registers + 1);
        self.private_global(RegKey::Inputs, "v", ty, None)
    }

    /// A `vec4<f32>` initialiser: zero, or the given values.
    fn vec4_init(&mut self, v: [f32; 4]) -> Handle<Expression> {
        if v.iter().all(|x| x.to_bits() == 0) {
            let ty = self.ty.vec4f;
            self.module
                .global_expressions
                .append(Expression::ZeroValue(ty), Span::UNDEFINED)
        } else {
            self.global_vec4(v)
        }
    }

    /// The pointer to vs_3_0 output register `o#n` (direct), in the current function.
    pub(super) fn output_pointer(&mut self, n: u32) -> Handle<Expression> {
        if self.registers.relative_outputs {
            let g = self.outputs_global();
            let base = self.global(g);
            return self.emit(Expression::AccessIndex {
                base,
                index: n.min(self.registers.output_registers),
            });
        }
        let key = RegKey::Output(n);
        let g = match self.resources.globals.get(&key) {
            Some(&g) => g,
            None => {
                // vs_3_0 output registers start at 0, like temporaries (Windows and Wine:
                // `test_uninitialized_varyings`, docs/decisions.md).
                let ty = self.ty.vec4f;
                self.private_global(key, &format!("o{n}"), ty, None)
            }
        };
        self.global(g)
    }

    /// The pointer to input register `v#n` (direct), in the current function.
    pub(super) fn input_pointer(&mut self, n: u32) -> Handle<Expression> {
        if self.registers.relative_inputs {
            let g = self.inputs_global();
            let base = self.global(g);
            return self.emit(Expression::AccessIndex {
                base,
                index: n.min(self.registers.input_registers),
            });
        }
        let ty = self.ty.vec4f;
        let g = self.private_global(RegKey::Input(n), &format!("v{n}"), ty, None);
        self.global(g)
    }

    /// The `o` array global of vs_3_0, zero like the direct registers.
    pub(super) fn outputs_global(&mut self) -> Handle<GlobalVariable> {
        let ty = self.vec4_array(self.registers.output_registers + 1);
        self.private_global(RegKey::Outputs, "o", ty, None)
    }

    /// The global of a fixed pre-3.0 output, initialised to its semantic's default.
    pub(super) fn fixed_output_global(
        &mut self,
        reg: Register,
    ) -> Result<Handle<GlobalVariable>, LiftError> {
        let key = RegKey::Fixed(reg.file, reg.index);
        if let Some(&g) = self.resources.globals.get(&key) {
            return Ok(g);
        }
        let semantic = crate::signature::fixed_vs_output(reg).ok_or_else(|| {
            self.internal(format!(
                "{}{} is not an output register",
                reg.file.prefix(),
                reg.index
            ))
        })?;
        let name = match (reg.file, reg.index) {
            (RegisterFile::RastOut, 0) => "oPos".to_string(),
            (RegisterFile::RastOut, 1) => "oFog".to_string(),
            (RegisterFile::RastOut, _) => "oPts".to_string(),
            (f, i) => format!("{}{}", f.prefix(), i),
        };
        let init = self.vec4_init(semantic.unwritten_value());
        let ty = self.ty.vec4f;
        Ok(self.private_global(key, &name, ty, Some(init)))
    }

    /// The pointer to a pixel-shader `t#`, `vPos`/`vFace`, `oC#` or `oDepth` register.
    pub(super) fn pixel_register_pointer(
        &mut self,
        file: RegisterFile,
        n: u32,
    ) -> Handle<Expression> {
        let name = match (file, n) {
            (RegisterFile::MiscType, 0) => "vPos".to_string(),
            (RegisterFile::MiscType, _) => "vFace".to_string(),
            (RegisterFile::DepthOut, _) => "oDepth".to_string(),
            (f, n) => format!("{}{n}", f.prefix()),
        };
        let ty = self.ty.vec4f;
        let g = self.private_global(RegKey::Pixel(file, n), &name, ty, None);
        self.global(g)
    }

    /// The bind group of this stage's constants.
    pub(super) fn constants_group(&self) -> u32 {
        match self.program.version.stage {
            Stage::Vertex => VS_CONSTANTS_GROUP,
            Stage::Pixel => PS_CONSTANTS_GROUP,
        }
    }

    /// The float constant buffer.
    pub(super) fn float_consts_global(&mut self) -> Handle<GlobalVariable> {
        let n = self.registers.float_registers;
        let ty = self.vec4_array(self.constants_window().unwrap_or(n + 1));
        let space = if self.registers.software {
            AddressSpace::Storage {
                access: naga::StorageAccess::LOAD,
            }
        } else {
            AddressSpace::Uniform
        };
        self.resource_global(
            RegKey::FloatConsts,
            "c",
            ty,
            space,
            self.constants_group(),
            FLOAT_CONSTANTS_BINDING,
        )
    }

    /// The window of `c#` registers the vertex stage reads from, where it applies (see
    /// `VertexShaderOptions::float_constants_window`): hardware vertex processing, no point
    /// expansion, and room for the registers and the zero register.
    pub(super) fn constants_window(&self) -> Option<u32> {
        let options = self.vertex_options()?;
        let window = options.float_constants_window?;
        (!self.registers.software
            && options.point_expansion.is_none()
            && window > self.registers.float_registers)
            .then_some(window)
    }

    /// The private `u32` holding where `c#0` is in the window (set at the entry point).
    pub(super) fn constants_base_global(&mut self) -> Handle<GlobalVariable> {
        let u32_ty = self.ty.u32;
        self.private_global(RegKey::ConstantsBase, "c_base", u32_ty, None)
    }

    /// The integer constant buffer `array<vec4<i32>, N>`.
    pub(super) fn int_consts_global(&mut self) -> Handle<GlobalVariable> {
        let vec4i = self.ty.vec4i;
        let ty = self.array_of(vec4i, self.registers.int_registers);
        self.resource_global(
            RegKey::IntConsts,
            "i",
            ty,
            AddressSpace::Uniform,
            self.constants_group(),
            INT_CONSTANTS_BINDING,
        )
    }

    /// The boolean constants: one `u32` mask in hardware vertex processing; 2048 bits as
    /// `array<vec4<u32>, 16>` in software vertex processing.
    pub(super) fn bool_consts_global(&mut self) -> Handle<GlobalVariable> {
        let ty = if self.registers.software {
            let vec4u = self.type_of(TypeInner::Vector {
                size: naga::VectorSize::Quad,
                scalar: naga::Scalar::U32,
            });
            self.array_of(vec4u, self.registers.bool_registers / 128)
        } else {
            self.ty.u32
        };
        self.resource_global(
            RegKey::BoolConsts,
            "b",
            ty,
            AddressSpace::Uniform,
            self.constants_group(),
            BOOL_CONSTANTS_BINDING,
        )
    }

    /// a0 (`vec4<i32>`), aL (`i32`), p0 (`vec4<bool>`) or r# (`vec4<f32>`).
    pub(super) fn register_global(&mut self, key: RegKey) -> Handle<GlobalVariable> {
        let (name, ty) = match key {
            RegKey::Addr => ("a0".to_string(), self.ty.vec4i),
            RegKey::Loop => ("aL".to_string(), self.ty.i32),
            RegKey::Pred => ("p0".to_string(), self.ty.vec4b),
            RegKey::Temp(n) => (format!("r{n}"), self.ty.vec4f),
            _ => ("unused".to_string(), self.ty.vec4f),
        };
        self.private_global(key, &name, ty, None)
    }

    /// The pointer expression of a register global in the current function.
    pub(super) fn register_pointer(&mut self, key: RegKey) -> Handle<Expression> {
        let g = self.register_global(key);
        self.global(g)
    }
}
