//! The alpha test (`D3DRS_ALPHATESTENABLE`, `D3DRS_ALPHAFUNC`, `D3DRS_ALPHAREF`), which
//! WebGPU has no fixed-function stage for, at the end of the pixel stage
//! (`PixelShaderOptions::alpha_test`).
//!
//! The test reads oC0's alpha (`r0` before ps_2_0) after the shader and after fixed-function
//! fog (which never changes alpha), for every pixel shader version. As DXVK does (which
//! matches Windows drivers on 8-bit render targets), the alpha is quantised to 8 bits first:
//! `a8 = round(saturate(alpha) * 255)` (WGSL's `round` rounds halves to even, DXVK's
//! `OpRoundEven`), and the pixel is discarded unless `a8 FUNC ref`, `ref` being
//! `D3DRS_ALPHAREF` clamped to 0..=255. `Never` discards every pixel; `Always` adds no code.
//! On a floating-point render target (`PixelShaderOptions::alpha_test_float_target`) the
//! alpha is stored unclamped and unquantised, and the test compares it so: `alpha FUNC
//! ref / 255` (vkd3d's alpha-test probes, checked on Windows, expect an alpha of 1.5 to pass
//! GREATER 1.0 and fail EQUAL 1.0 on an A32B32G32R32F target; DXVK likewise keys the alpha
//! test's precision on the render target's format).
//!
//! The reference comes from the uniform [`ALPHA_TEST_BINDING`] in [`PS_CONSTANTS_GROUP`]:
//! a `vec4<f32>` whose `.x` is the reference ([`alpha_ref_data`]), so changing it does not
//! recompile; the function is in the options (part of the pipeline key).
//!
//! [`ALPHA_TEST_BINDING`]: super::interface::ALPHA_TEST_BINDING
//! [`alpha_ref_data`]: super::interface::alpha_ref_data

use super::builder::Lifter;
use super::interface::{UniformBinding, ALPHA_TEST_BINDING, PS_CONSTANTS_GROUP};
use super::options::CompareFunction;
use super::state::RegKey;
use naga::{AddressSpace, BinaryOperator as Bo, Expression, Handle, MathFunction as Mf, Statement};

/// The WGSL comparison of `alpha FUNC ref`, for the functions that read the reference.
fn operator(func: CompareFunction) -> Option<Bo> {
    use CompareFunction as C;
    Some(match func {
        C::Less => Bo::Less,
        C::Equal => Bo::Equal,
        C::LessEqual => Bo::LessEqual,
        C::Greater => Bo::Greater,
        C::NotEqual => Bo::NotEqual,
        C::GreaterEqual => Bo::GreaterEqual,
        C::Never | C::Always => return None,
    })
}

impl Lifter<'_> {
    /// Discard the pixel unless the alpha of `color` (the `vec4` of oC0, after fog) passes
    /// `func`; returns the reference's uniform when the test reads it. The kill comes after
    /// everything the shader computes, so no derivative is taken after it.
    pub(super) fn alpha_test(
        &mut self,
        color: Handle<Expression>,
        func: CompareFunction,
    ) -> Option<UniformBinding> {
        let Some(op) = operator(func) else {
            if func == CompareFunction::Never {
                self.push(Statement::Kill);
            }
            return None;
        };
        let ty = self.ty.vec4f;
        let g = self.resource_global(
            RegKey::AlphaRef,
            "alpha_ref",
            ty,
            AddressSpace::Uniform,
            PS_CONSTANTS_GROUP,
            ALPHA_TEST_BINDING,
        );
        let p = self.global(g);
        let params = self.load(p);
        let reference = self.comp(params, 0);
        let alpha = self.comp(color, 3);
        let scale = self.lit_f32(255.0);
        let float_target = self
            .pixel_options()
            .is_some_and(|o| o.alpha_test_float_target);
        let passes = if float_target {
            // A float target stores the alpha as it is: compare it with ref / 255.
            let reference = self.bin(Bo::Divide, reference, scale);
            self.bin(op, alpha, reference)
        } else {
            // a8 = round(saturate(alpha) * 255), as an 8-bit target stores it.
            let alpha = self.math1(Mf::Saturate, alpha);
            let scaled = self.bin(Bo::Multiply, alpha, scale);
            let a8 = self.math1(Mf::Round, scaled);
            self.bin(op, a8, reference)
        };
        let fails = self.emit(Expression::Unary {
            op: naga::UnaryOperator::LogicalNot,
            expr: passes,
        });
        let mut accept = naga::Block::new();
        accept.push(Statement::Kill, self.span);
        self.push(Statement::If {
            condition: fails,
            accept,
            reject: naga::Block::new(),
        });
        Some(UniformBinding {
            group: PS_CONSTANTS_GROUP,
            binding: ALPHA_TEST_BINDING,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn from_d3d_is_the_d3dcmpfunc_table() {
        use CompareFunction as C;
        let all = [
            C::Never,
            C::Less,
            C::Equal,
            C::LessEqual,
            C::Greater,
            C::NotEqual,
            C::GreaterEqual,
            C::Always,
        ];
        for (value, func) in (1u32..).zip(all) {
            assert_eq!(CompareFunction::from_d3d(value), Some(func));
        }
        for value in [0, 9, 0x7fff_ffff, u32::MAX] {
            assert_eq!(CompareFunction::from_d3d(value), None);
        }
    }

    #[test]
    fn only_never_and_always_leave_the_reference_unread() {
        use CompareFunction as C;
        for value in 1..=8 {
            let func = CompareFunction::from_d3d(value).expect("D3DCMPFUNC");
            assert_eq!(
                operator(func).is_none(),
                matches!(func, C::Never | C::Always),
                "{func:?}"
            );
        }
    }
}
