//! The fragment-stage rewrite behind [`ExactReadback::UintTarget`](super::ExactReadback):
//! where `Rgba32Float` cannot be rendered to, a draw into an `Rgba32Float` target
//! renders into `Rgba32Uint`, its fragment stage writing `bitcast<vecN<u32>>` of the floats
//! it computes. The texel bytes read back are then exactly the floats' bytes.

use naga::{
    Expression, Function, FunctionResult, Handle, Module, Span, Statement, Type, TypeInner,
};

use super::GpuError;

/// `ty` with its `f32` scalar(s) replaced by `u32`; `None` when `ty` is not an `f32`
/// scalar or vector.
fn uint_of(inner: &TypeInner) -> Option<TypeInner> {
    match *inner {
        TypeInner::Scalar(naga::Scalar::F32) => Some(TypeInner::Scalar(naga::Scalar::U32)),
        TypeInner::Vector {
            size,
            scalar: naga::Scalar::F32,
        } => Some(TypeInner::Vector {
            size,
            scalar: naga::Scalar::U32,
        }),
        _ => None,
    }
}

fn is_location_0(binding: Option<&naga::Binding>) -> bool {
    matches!(binding, Some(naga::Binding::Location { location: 0, .. }))
}

/// Rewrites the fragment entry point `name` (or the module's only one) so that its
/// `@location(0)` `f32` output is written as the `u32` bit pattern of the same value.
///
/// The entry point's function becomes an ordinary function; a new entry point of the same
/// name and inputs calls it and bitcasts the location-0 value (the other outputs pass
/// unchanged). An entry point without an `f32` output at location 0 is left as it is.
pub fn bitcast_fragment_output(module: &mut Module, name: Option<&str>) -> Result<(), GpuError> {
    let index = fragment_entry(module, name)?;
    let Some(result) = module.entry_points[index].function.result.clone() else {
        return Ok(());
    };
    let old = module.types[result.ty].clone();
    let Some((new_ty, member)) = bits_result_type(module, &result, &old) else {
        return Ok(());
    };
    let (inner, arguments, entry_name) = entry_as_function(module, index, result.ty);
    let member = member.map(|k| {
        let count = match &old.inner {
            TypeInner::Struct { members, .. } => members.len(),
            _ => 0,
        };
        (k, count)
    });
    let result = FunctionResult {
        ty: new_ty,
        binding: result.binding,
    };
    module.entry_points[index].function =
        bitcasting_entry(entry_name, arguments, inner, result, member);
    Ok(())
}

/// The index of fragment entry point `name`, or of the module's only one.
fn fragment_entry(module: &Module, name: Option<&str>) -> Result<usize, GpuError> {
    let mut candidates = module
        .entry_points
        .iter()
        .enumerate()
        .filter(|(_, ep)| ep.stage == naga::ShaderStage::Fragment)
        .filter(|(_, ep)| name.is_none_or(|n| ep.name == n))
        .map(|(i, _)| i);
    let no_entry = || GpuError::NoFragmentEntryPoint {
        name: name.map(str::to_owned),
    };
    let index = candidates.next().ok_or_else(no_entry)?;
    if candidates.next().is_some() {
        return Err(no_entry());
    }
    Ok(index)
}

/// What changes: the whole result, or one member of the result struct (`Some(k)`), made
/// `u32`; the new result type. `None`: no `f32` output at location 0.
fn bits_result_type(
    module: &mut Module,
    result: &FunctionResult,
    old: &Type,
) -> Option<(Handle<Type>, Option<usize>)> {
    let (new_inner, member) = match (&result.binding, &old.inner) {
        (Some(binding), inner) if is_location_0(Some(binding)) => (uint_of(inner)?, None),
        (None, TypeInner::Struct { members, span }) => {
            let (k, new_ty) = members.iter().enumerate().find_map(|(k, m)| {
                is_location_0(m.binding.as_ref())
                    .then(|| uint_of(&module.types[m.ty].inner))
                    .flatten()
                    .map(|inner| (k, inner))
            })?;
            let new_ty = module.types.insert(
                Type {
                    name: None,
                    inner: new_ty,
                },
                Span::UNDEFINED,
            );
            let mut members = members.clone();
            if let Some(m) = members.get_mut(k) {
                m.ty = new_ty;
            }
            let inner = TypeInner::Struct {
                members,
                span: *span,
            };
            (inner, Some(k))
        }
        _ => return None,
    };
    let new_ty = module.types.insert(
        Type {
            name: old.name.as_ref().map(|n| format!("{n}_bits")),
            inner: new_inner,
        },
        Span::UNDEFINED,
    );
    Some((new_ty, member))
}

/// The entry point's function moved out as an ordinary function `<name>_float` (no
/// bindings, result of type `result_ty`): its handle, the entry's arguments and name.
fn entry_as_function(
    module: &mut Module,
    index: usize,
    result_ty: Handle<Type>,
) -> (Handle<Function>, Vec<naga::FunctionArgument>, String) {
    let entry = &mut module.entry_points[index];
    let mut inner = std::mem::take(&mut entry.function);
    let arguments = inner.arguments.clone();
    for argument in &mut inner.arguments {
        argument.binding = None;
    }
    inner.result = Some(FunctionResult {
        ty: result_ty,
        binding: None,
    });
    inner.name = Some(format!("{}_float", entry.name));
    let entry_name = entry.name.clone();
    let inner = module.functions.append(inner, Span::UNDEFINED);
    (inner, arguments, entry_name)
}

/// The new entry: call `inner`, bitcast its location-0 value (the whole result, or member
/// `k` of `count`) into `result`'s type.
fn bitcasting_entry(
    name: String,
    arguments: Vec<naga::FunctionArgument>,
    inner: Handle<Function>,
    result: FunctionResult,
    member: Option<(usize, usize)>,
) -> Function {
    let new_ty = result.ty;
    let mut f = Function {
        name: Some(name),
        arguments,
        result: Some(result),
        ..Function::default()
    };
    let span = Span::UNDEFINED;
    let args: Vec<_> = (0u32..)
        .take(f.arguments.len())
        .map(|i| f.expressions.append(Expression::FunctionArgument(i), span))
        .collect();
    let call = f.expressions.append(Expression::CallResult(inner), span);
    f.body.push(
        Statement::Call {
            function: inner,
            arguments: args,
            result: Some(call),
        },
        span,
    );
    let start = f.expressions.len();
    let bitcast = |f: &mut Function, expr: Handle<Expression>| {
        f.expressions.append(
            Expression::As {
                expr,
                kind: naga::ScalarKind::Uint,
                convert: None,
            },
            span,
        )
    };
    let value = match member {
        None => bitcast(&mut f, call),
        Some((k, count)) => {
            let components = (0u32..)
                .take(count)
                .map(|i| {
                    let value = f.expressions.append(
                        Expression::AccessIndex {
                            base: call,
                            index: i,
                        },
                        span,
                    );
                    match i as usize == k {
                        true => bitcast(&mut f, value),
                        false => value,
                    }
                })
                .collect();
            f.expressions.append(
                Expression::Compose {
                    ty: new_ty,
                    components,
                },
                span,
            )
        }
    };
    f.body
        .push(Statement::Emit(f.expressions.range_from(start)), span);
    f.body.push(Statement::Return { value: Some(value) }, span);
    f
}

#[cfg(test)]
#[allow(clippy::panic)] // a failing test prints the validation error
mod tests {
    use super::*;

    fn rewrite(source: &str, name: Option<&str>) -> String {
        let mut module = naga::front::wgsl::parse_str(source).expect("test WGSL parses");
        bitcast_fragment_output(&mut module, name).expect("rewrite");
        let info = match naga::valid::Validator::new(
            naga::valid::ValidationFlags::all(),
            naga::valid::Capabilities::all(),
        )
        .validate(&module)
        {
            Ok(info) => info,
            Err(e) => panic!("{e:?}"),
        };
        naga::back::wgsl::write_string(&module, &info, naga::back::wgsl::WriterFlags::empty())
            .expect("WGSL out")
    }

    #[test]
    fn direct_output_becomes_its_bits() {
        let wgsl = rewrite(
            "@fragment fn fs(@location(0) @interpolate(flat) v: vec4<f32>) -> @location(0) vec4<f32> { return v * 2.0; }",
            None,
        );
        assert!(wgsl.contains("-> @location(0) vec4<u32>"), "{wgsl}");
        assert!(wgsl.contains("bitcast<vec4<u32>>"), "{wgsl}");
    }

    #[test]
    fn struct_output_bitcasts_location_0_only() {
        let wgsl = rewrite(
            "struct Out { @builtin(frag_depth) depth: f32, @location(0) colour: vec3<f32> }\n\
             @fragment fn a() -> @location(0) vec4<f32> { return vec4<f32>(1.0); }\n\
             @fragment fn b(@builtin(position) p: vec4<f32>) -> Out { return Out(0.5, p.xyz); }",
            Some("b"),
        );
        assert!(wgsl.contains("bitcast<vec3<u32>>"), "{wgsl}");
        assert!(wgsl.contains("@location(0) colour: vec3<u32>"), "{wgsl}");
        // Entry point `a` is untouched.
        assert!(wgsl.contains("fn a() -> @location(0) vec4<f32>"), "{wgsl}");
    }

    #[test]
    fn missing_or_ambiguous_entry_is_an_error() {
        let source = "@fragment fn a() -> @location(0) vec4<f32> { return vec4<f32>(1.0); }\n\
                      @fragment fn b() -> @location(0) vec4<f32> { return vec4<f32>(0.0); }";
        let mut module = naga::front::wgsl::parse_str(source).expect("test WGSL parses");
        assert!(matches!(
            bitcast_fragment_output(&mut module, None),
            Err(GpuError::NoFragmentEntryPoint { name: None })
        ));
        assert!(matches!(
            bitcast_fragment_output(&mut module, Some("c")),
            Err(GpuError::NoFragmentEntryPoint { .. })
        ));
    }
}
