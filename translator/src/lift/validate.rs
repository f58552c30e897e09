//! Translated shaders as validated modules: naga's validation of every module the lifter
//! builds (a failure names the D3D9 instruction its span carries), the uniformity diagnostic a
//! pixel shader may need, and WGSL output.

use super::error::LiftError;
use super::interface::ShaderInterface;
use crate::bytecode::{Opcode, Program, RegisterFile};

/// A translated shader: a validated module, its validation info and its interface.
#[derive(Debug, Clone)]
pub struct TranslatedShader {
    pub module: naga::Module,
    pub info: naga::valid::ModuleInfo,
    pub interface: ShaderInterface,
}

impl TranslatedShader {
    /// The module as WGSL. The text is written into a string sized from the module up front
    /// (growing it by reallocation cost about a tenth of the translation time).
    pub fn wgsl(&self) -> Result<String, LiftError> {
        let expressions: usize = self
            .module
            .functions
            .iter()
            .map(|(_, f)| f.expressions.len())
            .chain(
                self.module
                    .entry_points
                    .iter()
                    .map(|e| e.function.expressions.len()),
            )
            .sum();
        let estimate = 1024 + 48 * expressions + 96 * self.module.global_variables.len();
        let mut w = naga::back::wgsl::Writer::new(
            String::with_capacity(estimate),
            naga::back::wgsl::WriterFlags::empty(),
        );
        w.write(&self.module, &self.info)
            .map_err(|e| LiftError::Internal(format!("WGSL output: {e}")))?;
        let text = w.finish();
        // naga's WGSL writer does not print diagnostic filters: the one the lifter sets is a
        // directive before every declaration.
        if allows_nonuniform_derivatives(&self.module) {
            return Ok(format!("{NONUNIFORM_DERIVATIVES_DIRECTIVE}\n{text}"));
        }
        Ok(text)
    }
}

/// The WGSL directive of a module that takes derivatives in non-uniform control flow.
pub const NONUNIFORM_DERIVATIVES_DIRECTIVE: &str = "diagnostic(off, derivative_uniformity);";

/// Validate a module as every translated module is validated.
pub fn validate(module: &naga::Module) -> Result<naga::valid::ModuleInfo, LiftError> {
    validate_spanned(module, None)
}

/// naga's validation, with one validator per thread.
pub(super) fn validate_raw(
    module: &naga::Module,
) -> Result<naga::valid::ModuleInfo, Box<naga::WithSpan<naga::valid::ValidationError>>> {
    thread_local! {
        // One validator per thread, reused: `validate` resets it, and building one allocates.
        static VALIDATOR: std::cell::RefCell<naga::valid::Validator> =
            std::cell::RefCell::new(naga::valid::Validator::new(
                naga::valid::ValidationFlags::all(),
                // Clip distances only where `VertexShaderOptions::clip_planes` asks for them.
                naga::valid::Capabilities::default() | naga::valid::Capabilities::CLIP_DISTANCES,
            ));
    }
    VALIDATOR.with(|v| v.borrow_mut().validate(module).map_err(Box::new))
}

/// Validate a module; a failure names the D3D9 instruction whose span it carries.
pub(super) fn validate_spanned(
    module: &naga::Module,
    program: Option<&Program>,
) -> Result<naga::valid::ModuleInfo, LiftError> {
    validate_raw(module).map_err(|e| validation_error(&e, program))
}

/// A validation failure as a translator bug naming the D3D9 instruction its span carries.
pub(super) fn validation_error(
    e: &naga::WithSpan<naga::valid::ValidationError>,
    program: Option<&Program>,
) -> LiftError {
    let at = program.and_then(|p| {
        e.spans().find_map(|(span, _)| {
            let start = span.to_range()?.start;
            p.instructions.iter().enumerate().find_map(|(i, inst)| {
                let r = super::builder::instruction_span(p, i).to_range()?;
                r.contains(&start).then(|| {
                    format!(
                        " at instruction {i} ({}) token {}",
                        inst.opcode, inst.offset
                    )
                })
            })
        })
    });
    LiftError::Internal(format!(
        "generated module fails validation{}: {:?}",
        at.unwrap_or_default(),
        e.as_inner()
    ))
}

/// Whether a pixel shader may take implicit derivatives in non-uniform control flow, which
/// WGSL's uniformity analysis refuses: it has an implicit-derivative operation (`texld`,
/// `texldp`, `texldb`, `dsx`, `dsy`) and a branch on a value that may vary per pixel
/// (`if p0`, `ifc`, `breakc`, `breakp`, `callnz p0`). Branches on `b#` and loop counts from
/// `i#` are uniform; `texkill` is WGSL's `discard`, which demotes to a helper invocation and
/// leaves uniformity alone. Conservative: the whole program counts, not only the code under
/// the branch.
pub(super) fn needs_nonuniform_derivatives(program: &Program) -> bool {
    let derivative = program.instructions.iter().any(|i| {
        matches!(i.opcode, Opcode::Dsx | Opcode::Dsy)
            || (i.opcode == Opcode::Tex && program.version.major >= 2)
    });
    let varying_branch = program.instructions.iter().any(|i| match i.opcode {
        Opcode::Ifc | Opcode::Breakc | Opcode::Breakp => true,
        Opcode::If | Opcode::CallNz => i.src.iter().any(|s| s.reg.file == RegisterFile::Predicate),
        _ => false,
    });
    derivative && varying_branch
}

/// Whether the module turns `derivative_uniformity` off (see
/// [`allow_nonuniform_derivatives`]).
pub(super) fn allows_nonuniform_derivatives(module: &naga::Module) -> bool {
    use naga::diagnostic_filter::{
        FilterableTriggeringRule, Severity, StandardFilterableTriggeringRule,
    };
    module.diagnostic_filters.iter().any(|(_, node)| {
        node.inner.new_severity == Severity::Off
            && node.inner.triggering_rule
                == FilterableTriggeringRule::Standard(
                    StandardFilterableTriggeringRule::DerivativeUniformity,
                )
    })
}

/// Turn WGSL's `derivative_uniformity` diagnostic off for the whole module
/// (`diagnostic(off, derivative_uniformity);`): D3D9 leaves gradients in divergent flow
/// control undefined, as WGSL does with the diagnostic off.
pub(super) fn allow_nonuniform_derivatives(module: &mut naga::Module) {
    use naga::diagnostic_filter::{
        DiagnosticFilter, DiagnosticFilterNode, FilterableTriggeringRule, Severity,
        StandardFilterableTriggeringRule,
    };
    let node = module.diagnostic_filters.append(
        DiagnosticFilterNode {
            inner: DiagnosticFilter {
                new_severity: Severity::Off,
                triggering_rule: FilterableTriggeringRule::Standard(
                    StandardFilterableTriggeringRule::DerivativeUniformity,
                ),
            },
            parent: module.diagnostic_filter_leaf,
        },
        naga::Span::UNDEFINED,
    );
    module.diagnostic_filter_leaf = Some(node);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bytecode::{Instruction, Stage, TokenOffset, Version};
    use naga::{Expression, Literal as L, Span, Statement};

    /// A module whose one function adds an `f32` to an `i32` (invalid), the expression
    /// carrying the span of instruction 1 of `program`.
    fn invalid_module(program: &Program) -> naga::Module {
        let mut module = naga::Module::default();
        let mut f = naga::Function::default();
        let span = super::super::builder::instruction_span(program, 1);
        let a = f.expressions.append(Expression::Literal(L::F32(1.0)), span);
        let b = f.expressions.append(Expression::Literal(L::I32(1)), span);
        let sum = f.expressions.append(
            Expression::Binary {
                op: naga::BinaryOperator::Add,
                left: a,
                right: b,
            },
            span,
        );
        f.body.push(
            Statement::Emit(naga::Range::new_from_bounds(sum, sum)),
            span,
        );
        module.functions.append(f, Span::UNDEFINED);
        module
    }

    #[test]
    fn validation_failures_name_the_d3d9_instruction() {
        let mut program = Program::new(Version::new(Stage::Vertex, 2, 0));
        for (i, op) in [Opcode::Mov, Opcode::Mad, Opcode::Add]
            .into_iter()
            .enumerate()
        {
            let mut inst = Instruction::new(op);
            inst.offset = TokenOffset(1 + 4 * i as u32);
            program.instructions.push(inst);
        }
        let module = invalid_module(&program);
        let err = validate_spanned(&module, Some(&program)).expect_err("invalid module");
        let text = err.to_string();
        assert!(text.contains("at instruction 1 (mad) token 5"), "{text}");
        // Without the program the error still says it is a translator bug.
        let plain = validate(&module).expect_err("invalid module").to_string();
        assert!(plain.contains("internal error"), "{plain}");
        assert!(!plain.contains("at instruction"), "{plain}");
    }

    #[test]
    fn instruction_spans_run_to_the_next_instruction() {
        let mut program = Program::new(Version::new(Stage::Vertex, 2, 0));
        for off in [1u32, 4, 9] {
            let mut inst = Instruction::new(Opcode::Nop);
            inst.offset = TokenOffset(off);
            program.instructions.push(inst);
        }
        let r = |i| super::super::builder::instruction_span(&program, i).to_range();
        assert_eq!(r(0), Some(4..16));
        assert_eq!(r(1), Some(16..36));
        assert_eq!(r(2), Some(36..40));
        assert_eq!(r(3), None);
    }

    /// Only the filter that turns derivative uniformity off counts: another rule off, or the
    /// same rule at another severity, does not.
    #[test]
    fn only_derivative_uniformity_off_allows_nonuniform_derivatives() {
        use naga::diagnostic_filter::{
            DiagnosticFilter, DiagnosticFilterNode, FilterableTriggeringRule as R, Severity,
            StandardFilterableTriggeringRule as S,
        };
        let with = |new_severity, triggering_rule| {
            let mut module = naga::Module::default();
            module.diagnostic_filters.append(
                DiagnosticFilterNode {
                    inner: DiagnosticFilter {
                        new_severity,
                        triggering_rule,
                    },
                    parent: None,
                },
                Span::UNDEFINED,
            );
            allows_nonuniform_derivatives(&module)
        };
        let rule = R::Standard(S::DerivativeUniformity);
        assert!(with(Severity::Off, rule.clone()));
        assert!(!with(Severity::Warning, rule));
        assert!(!with(Severity::Off, R::Unknown("other".into())));
        let mut module = naga::Module::default();
        assert!(!allows_nonuniform_derivatives(&module));
        allow_nonuniform_derivatives(&mut module);
        assert!(allows_nonuniform_derivatives(&module));
    }
}
