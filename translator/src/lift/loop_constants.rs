//! Loop controls a pipeline may specialise. D3D9 runs `loop aL, i#` `min(i#.x, 255)` times
//! with aL from `i#.y` stepping by `i#.z`, and `rep i#` `min(i#.x, 255)` times, reading `i#`
//! as the draw runs. Where `i#` is not `defi`'d, each component a loop reads is
//! `select(uniform, override, flag)` over pipeline-overridable constants of that register
//! (`{vs,ps}_i{n}_spec`, `_x`, `_y`, `_z`; a bool false and zeros by default). With the
//! defaults the loops read the uniform as before; with the flag true and the register's
//! values the loop has a constant count, start and step, which drivers unroll or
//! strength-reduce (`c[aL + n]` with a run-time start and step costs about 1.5–1.7× the whole
//! shader on lavapipe). The interface names them ([`LoopConstant`]); [`resolve_overrides`]
//! fixes them in a module (what the device does per pipeline), WGSL text keeps them as
//! `override` declarations.

use naga::{Expression, Handle, Literal, Override, Span};

use super::builder::Lifter;
use super::error::LiftError;
use super::interface::LoopConstant;
use crate::bytecode::{Register, Stage};

impl Lifter<'_> {
    /// The first `n` components of the `i#` a `loop` (3: count, start, step) or `rep` (1:
    /// count) reads: literals where `defi`'d, otherwise each the override where the
    /// register's flag is set and the uniform where not.
    pub(super) fn loop_control(
        &mut self,
        reg: &Register,
        n: u32,
    ) -> Result<Vec<Handle<Expression>>, LiftError> {
        let iv = self.read_int(reg)?;
        let uniform: Vec<_> = (0..n).map(|i| self.comp(iv, i)).collect();
        if self.registers.defs.ints.contains_key(&reg.index) {
            return Ok(uniform);
        }
        // The register the uniform read is of (`read_int` clamps the index likewise).
        let register = reg
            .index
            .min(self.registers.int_registers.saturating_sub(1));
        let [flag, components @ ..] = self.loop_overrides(register);
        let flag = self.emit(Expression::Override(flag));
        Ok(uniform
            .into_iter()
            .zip(components)
            .map(|(u, o)| {
                let o = self.emit(Expression::Override(o));
                self.select(flag, o, u)
            })
            .collect())
    }

    /// The overrides of `i#register` (flag, x, y, z), declared on first use.
    fn loop_overrides(&mut self, register: u32) -> [Handle<Override>; 4] {
        if let Some(&o) = self.resources.loop_overrides.get(&register) {
            return o;
        }
        let prefix = match self.program.version.stage {
            Stage::Vertex => "vs",
            Stage::Pixel => "ps",
        };
        let (bool_ty, i32_ty) = (self.ty.bool, self.ty.i32);
        let mut declare = |suffix: &str, ty, init| {
            let init = self
                .module
                .global_expressions
                .append(Expression::Literal(init), Span::UNDEFINED);
            self.module.overrides.append(
                Override {
                    name: Some(format!("{prefix}_i{register}_{suffix}")),
                    id: None,
                    ty,
                    init: Some(init),
                },
                Span::UNDEFINED,
            )
        };
        let o = [
            declare("spec", bool_ty, Literal::Bool(false)),
            declare("x", i32_ty, Literal::I32(0)),
            declare("y", i32_ty, Literal::I32(0)),
            declare("z", i32_ty, Literal::I32(0)),
        ];
        self.resources.loop_overrides.insert(register, o);
        o
    }

    /// The interface's [`LoopConstant`]s, in register order.
    pub(super) fn loop_constants(&self) -> Vec<LoopConstant> {
        let name = |h: Handle<Override>| self.module.overrides[h].name.clone().unwrap_or_default();
        self.resources
            .loop_overrides
            .iter()
            .map(|(&register, &[flag, x, y, z])| LoopConstant {
                register,
                flag: name(flag),
                components: [name(x), name(y), name(z)],
            })
            .collect()
    }
}

/// `module` with its pipeline-overridable constants replaced by literals: the value named in
/// `constants` (a bool is true where not 0), else the default (false, 0: the loops read the
/// uniform). What a pipeline built with `constants` runs; callers hand wgpu the result rather
/// than the constants, since naga 30's override processing (`process_overrides`) re-evaluates
/// every expression of the module and makes some valid translations invalid
/// (`ExpressionAlreadyInScope`). A literal stands where the override stood, so emit ranges
/// and types are unchanged.
pub fn resolve_overrides(module: &mut naga::Module, constants: &[(&str, f64)]) {
    if module.overrides.is_empty() {
        return;
    }
    let literal = |h: Handle<Override>| {
        let o = &module.overrides[h];
        let given = o
            .name
            .as_deref()
            .and_then(|n| constants.iter().rev().find(|(k, _)| *k == n))
            .map(|&(_, v)| v);
        let default = o.init.map(|i| &module.global_expressions[i]);
        let is_bool = matches!(
            module.types[o.ty].inner,
            naga::TypeInner::Scalar(naga::Scalar::BOOL)
        );
        match (given, default) {
            (Some(v), _) if is_bool => Literal::Bool(v != 0.0),
            (Some(v), _) => Literal::I32(v as i32),
            (None, Some(Expression::Literal(l))) => *l,
            (None, _) if is_bool => Literal::Bool(false),
            (None, _) => Literal::I32(0),
        }
    };
    let values: Vec<Literal> = module.overrides.iter().map(|(h, _)| literal(h)).collect();
    let functions = module
        .functions
        .iter_mut()
        .map(|(_, f)| f)
        .chain(module.entry_points.iter_mut().map(|e| &mut e.function));
    for f in functions {
        for (_, e) in f.expressions.iter_mut() {
            if let Expression::Override(h) = *e {
                *e = Expression::Literal(values[h.index()]);
            }
        }
    }
    module.overrides.clear();
}

#[cfg(test)]
mod tests {
    use crate::asm::assemble;
    use crate::bytecode::Stage;
    use crate::check::{check, DeviceCaps};
    use crate::lift::{translate_vertex_shader, TranslatedShader, VertexShaderOptions};

    fn translate(src: &str) -> TranslatedShader {
        let program = assemble(src).expect("assembles");
        let checked = check(&program, Stage::Vertex, &DeviceCaps::default()).expect("checks");
        translate_vertex_shader(&checked, &VertexShaderOptions::default()).expect("translates")
    }

    const LOOPS: &str = "vs_3_0\n\
        dcl_position v0\n\
        dcl_position o0\n\
        mov r0, c0\n\
        loop aL, i2\n\
        add r0, r0, c[aL + 4]\n\
        endloop\n\
        rep i2\n\
        add r0, r0, c1\n\
        endrep\n\
        rep i5\n\
        add r0, r0, c2\n\
        endrep\n\
        mov o0, r0\n";

    #[test]
    fn loops_over_uniform_registers_declare_overrides_once_per_register() {
        let shader = translate(LOOPS);
        let names: Vec<_> = shader.interface.loop_constants.iter().collect();
        assert_eq!(names.len(), 2, "{names:?}");
        assert_eq!(names[0].register, 2);
        assert_eq!(names[0].flag, "vs_i2_spec");
        assert_eq!(names[0].components, ["vs_i2_x", "vs_i2_y", "vs_i2_z"]);
        assert_eq!(names[1].register, 5);
        assert_eq!(shader.module.overrides.len(), 8);
        let c = shader.interface.loop_constant_values(&[[7, 1, 2, 9]; 16]);
        assert!(c.contains(&("vs_i2_spec", 1.0)));
        assert!(c.contains(&("vs_i2_z", 2.0)));
        assert!(c.contains(&("vs_i5_x", 7.0)));
        assert_eq!(c.len(), 8);
    }

    #[test]
    fn defi_registers_need_no_overrides() {
        let shader = translate(
            "vs_3_0\ndefi i0, 3, 0, 1, 0\ndcl_position v0\ndcl_position o0\nmov r0, c0\n\
             loop aL, i0\nadd r0, r0, c[aL + 4]\nendloop\nmov o0, r0\n",
        );
        assert!(shader.interface.loop_constants.is_empty());
        assert!(shader.module.overrides.is_empty());
    }

    /// Resolved, the module has no overrides left and validates, specialised or not.
    #[test]
    fn resolved_modules_validate() {
        let shader = translate(LOOPS);
        let mut generic = shader.module.clone();
        crate::lift::resolve_overrides(&mut generic, &[]);
        assert!(generic.overrides.is_empty());
        crate::lift::validate(&generic).expect("generic validates");
        let mut specialised = shader.module.clone();
        let values = shader.interface.loop_constant_values(&[[4, 0, 1, 0]; 16]);
        crate::lift::resolve_overrides(&mut specialised, &values);
        crate::lift::validate(&specialised).expect("specialised validates");
        let wgsl = crate::lift::validate(&specialised)
            .map(|info| {
                naga::back::wgsl::write_string(
                    &specialised,
                    &info,
                    naga::back::wgsl::WriterFlags::empty(),
                )
                .expect("wgsl")
            })
            .expect("validates");
        assert!(wgsl.contains("select(_e"), "{wgsl}");
        assert!(wgsl.contains(", 4i, true)"), "{wgsl}");
    }

    /// An override without a literal default (a module not made by the lifter) resolves to
    /// false or 0 by its type, and the module still validates.
    #[test]
    fn overrides_without_a_literal_default_resolve_by_their_type() {
        let mut module = naga::front::wgsl::parse_str(
            "override flag: bool;\noverride n: i32;\n\
             @compute @workgroup_size(1) fn main() { var x: i32 = 0; if flag { x = n; } }\n",
        )
        .expect("parses");
        crate::lift::resolve_overrides(&mut module, &[]);
        assert!(module.overrides.is_empty());
        crate::lift::validate(&module).expect("validates");
    }

    /// The WGSL text declares the overrides and parses back into a module that validates.
    #[test]
    fn wgsl_with_overrides_round_trips() {
        let shader = translate(LOOPS);
        let wgsl = shader.wgsl().expect("wgsl");
        assert!(
            wgsl.contains("override vs_i2_spec: bool = false;"),
            "{wgsl}"
        );
        assert!(wgsl.contains("override vs_i5_x: i32 = 0i;"), "{wgsl}");
        let module = naga::front::wgsl::parse_str(&wgsl).expect("parses");
        assert_eq!(module.overrides.len(), 8);
        crate::lift::validate(&module).expect("validates");
    }
}
