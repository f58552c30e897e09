//! The shader checker against Wine's expectations (which pass on Windows): the 33 creation
//! rejections and 11 d3d8 validation cases of `invalid_shaders.json`, and every complete shader
//! of `d3d9_visual.json` and `other_shaders.json`.

mod common;
use common::{corpus, tokens};

use d3d9_translator::bytecode::{DecodeError, Opcode, Stage};
use d3d9_translator::check::{
    check_tokens, Api, CheckError, DeviceCaps, InvalidShader, VertexProcessing,
};
use serde_json::Value;

fn str_of<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or("")
}

/// The stage of the creation call an entry names.
fn api_stage(api: &str) -> Stage {
    if api.contains("VertexShader") {
        Stage::Vertex
    } else {
        Stage::Pixel
    }
}

fn with_vp(caps: DeviceCaps, vp: VertexProcessing) -> DeviceCaps {
    DeviceCaps {
        vertex_processing: vp,
        ..caps
    }
}

/// The register a `def`/`defi`/`defb` reason names: `"def c256 in vs_1_1 ..."` → `"c256"`.
fn defined_register(reason: &str) -> Option<&str> {
    let mut words = reason.split([' ', ':', '/']);
    words.find(|w| matches!(*w, "def" | "defi" | "defb"))?;
    words.next()
}

/// Whether `err` is the rule an `invalid_shaders.json` creation rejection's `reason` names.
fn rule_fits(reason: &str, err: &InvalidShader) -> bool {
    use InvalidShader as I;
    if reason.starts_with("pixel shader bytecode") {
        return matches!(
            err,
            I::WrongStage {
                shader: "pixel",
                ..
            }
        );
    }
    if reason.starts_with("vertex shader bytecode") {
        return matches!(
            err,
            I::WrongStage {
                shader: "vertex",
                ..
            }
        );
    }
    if reason.contains("DXBC") {
        return matches!(err, I::Decode(DecodeError::Dxbc));
    }
    if reason.starts_with("shader model not supported by the device") {
        return matches!(
            err,
            I::VersionAboveCaps {
                caps_field: "VertexShaderVersion",
                ..
            }
        );
    }
    if reason.contains("is not accepted by Direct3D 8") {
        return matches!(err, I::ProfileNotInApi { .. });
    }
    if reason.contains("static flow control not allowed in ps_2_0") {
        // The first static flow-control instruction (defb, defi, rep, if) is refused.
        return matches!(
            err,
            I::OpcodeNotInVersion { opcode: Opcode::Defb | Opcode::Defi | Opcode::Rep | Opcode::If, version, .. }
                if version.to_string() == "ps_2_0"
        );
    }
    if reason.contains("POSITION index 0") {
        return matches!(err, I::PixelPosition0 { .. });
    }
    match (defined_register(reason), err) {
        (Some(reg), I::RegisterOutOfRange { reg: got, .. }) => got.to_string() == reg,
        _ => false,
    }
}

/// Whether `err` is the rule a d3d8 validation case stands for: a version above the caps,
/// a constant past MaxVertexShaderConst, a version token that is not a version, or a
/// profile Direct3D 8 does not have.
fn validate_rule_fits(base: &str, caps: &str, err: &InvalidShader) -> bool {
    use InvalidShader as I;
    match (base, caps) {
        (_, "VertexShaderVersion 1.0, MaxVertexShaderConst 4") => matches!(
            err,
            I::VersionAboveCaps {
                caps_field: "VertexShaderVersion",
                major: 1,
                minor: 0,
                ..
            }
        ),
        (_, "VertexShaderVersion 1.1, MaxVertexShaderConst 3 (shader reads c0..c3)") => {
            matches!(err, I::RegisterOutOfRange { reg, limit: 3, .. } if reg.to_string() == "c3")
        }
        (_, "PixelShaderVersion 1.0") => matches!(
            err,
            I::VersionAboveCaps {
                caps_field: "PixelShaderVersion",
                major: 1,
                minor: 0,
                ..
            }
        ),
        ("vs_code with version token 0xfffe0102", "") => matches!(
            err,
            I::Decode(DecodeError::BadVersion { token: 0xfffe_0102 })
        ),
        ("ps_1_1_code with version token 0xffff0105", "") => matches!(
            err,
            I::Decode(DecodeError::BadVersion { token: 0xffff_0105 })
        ),
        ("ps_2_0_code", "") => matches!(err, I::ProfileNotInApi { .. }),
        _ => false,
    }
}

/// Each rejection is refused (as Invalid, for the rule its `reason` names) under the
/// condition it names, and accepted on the devices where Wine's tests expect D3D_OK.
#[test]
fn invalid_shaders_are_rejected_under_their_condition() {
    let data = corpus("invalid_shaders.json");
    let entries = data["create_rejections"].as_array().expect("rejections");
    let mut failures = Vec::new();
    let mut checked = 0;
    for e in entries {
        let name = str_of(e, "name");
        let api = str_of(e, "api");
        let condition = str_of(e, "condition");
        let toks = tokens(&e["tokens"]);
        let stage = api_stage(api);
        let base = if api.contains("Device8") {
            DeviceCaps::d3d8()
        } else {
            DeviceCaps::default()
        };
        // (caps, expect_reject, why)
        let mut cases: Vec<(DeviceCaps, bool, &str)> = Vec::new();
        match (name, condition) {
            (_, "always") | (_, "always (d3d8)") => cases.push((base, true, "always")),
            (_, c) if c.starts_with("only when caps.VertexShaderVersion < 3.0") => {
                cases.push((
                    DeviceCaps {
                        max_vs_version: (2, 0),
                        ..base
                    },
                    true,
                    "VS 2.0 device",
                ));
                cases.push((base, false, "VS 3.0 device"));
            }
            ("vs_1_255", "caps dependent") => {
                let small = DeviceCaps {
                    max_vs_version: (1, 1),
                    max_vertex_shader_const: 96,
                    ..base
                };
                cases.push((small, true, "VS 1.1 device with 96 constants"));
                cases.push((base, false, "256-constant device"));
            }
            (_, c) if c.starts_with("checked only when caps.VertexShaderVersion >= 3.0") => {
                cases.push((base, true, "hardware vertex processing"));
                if c.contains("SWVP-only device") {
                    let sw = with_vp(base, VertexProcessing::Software);
                    let mixed = with_vp(base, VertexProcessing::Mixed);
                    cases.push((sw, false, "software vertex processing"));
                    cases.push((mixed, false, "mixed vertex processing"));
                }
            }
            (_, "only checked when caps.PixelShaderVersion >= 3.0")
            | (_, "SM3 device (test skipped otherwise)")
            | (_, "checked when caps.MaxVertexShaderConst >= 256") => {
                cases.push((base, true, "default device"))
            }
            _ => {
                failures.push(format!("{name}: unhandled condition {condition:?}"));
                continue;
            }
        }
        for (caps, expect_reject, why) in cases {
            match check_tokens(&toks, stage, &caps) {
                Err(CheckError::Invalid(err)) if expect_reject => {
                    if !rule_fits(str_of(e, "reason"), &err) {
                        failures.push(format!(
                            "{name} ({why}): refused for another rule than {:?}: {err}",
                            str_of(e, "reason")
                        ));
                    }
                }
                Err(err) if expect_reject => failures.push(format!(
                    "{name} ({why}): rejected but not as Invalid: {err}"
                )),
                Ok(_) if expect_reject => failures.push(format!("{name} ({why}): accepted")),
                Err(err) => failures.push(format!("{name} ({why}): rejected: {err}")),
                Ok(_) => {}
            }
        }
        checked += 1;
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(checked, 33);
}

/// The 11 d3d8 `ValidateVertexShader`/`ValidatePixelShader` cases give Wine's answer, and
/// each E_FAIL for the rule the case changes (caps, version token or profile).
#[test]
fn d3d8_validation_cases_give_wines_answer() {
    let data = corpus("invalid_shaders.json");
    let cases = data["d3d8_validate_cases"].as_array().expect("cases");
    let mut failures = Vec::new();
    for c in cases {
        let api = str_of(c, "api");
        let stage = api_stage(api);
        let mut caps = DeviceCaps::d3d8();
        match str_of(c, "caps") {
            "" => {}
            "VertexShaderVersion 1.0, MaxVertexShaderConst 4" => {
                caps.max_vs_version = (1, 0);
                caps.max_vertex_shader_const = 4;
            }
            "VertexShaderVersion 1.1, MaxVertexShaderConst 3 (shader reads c0..c3)" => {
                caps.max_vs_version = (1, 1);
                caps.max_vertex_shader_const = 3;
            }
            "PixelShaderVersion 1.0" => caps.max_ps_version = (1, 0),
            other => {
                failures.push(format!("unhandled caps {other:?}"));
                continue;
            }
        }
        assert_eq!(caps.api, Api::D3D8);
        let expect_ok = str_of(c, "expected_hr") == "S_OK";
        let result = check_tokens(&tokens(&c["tokens"]), stage, &caps);
        let label = format!("{} ({})", str_of(c, "base"), str_of(c, "caps"));
        match (&result, expect_ok) {
            (Ok(_), true) => {}
            (Err(CheckError::Invalid(e)), false) => {
                if !validate_rule_fits(str_of(c, "base"), str_of(c, "caps"), e) {
                    failures.push(format!("{label}: refused for another rule: {e}"));
                }
            }
            (Ok(_), false) => failures.push(format!("{label}: accepted, Wine expects E_FAIL")),
            (Err(e), _) => failures.push(format!("{label}: {e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(cases.len(), 11);
}

/// Shaders of other_shaders.json that Wine's tests expect a creation call to refuse on the
/// device they run on; `invalid_shaders_are_rejected_under_their_condition` covers them.
const EXPECTED_TO_FAIL: &[(&str, &str)] = &[
    ("dlls/d3d9/tests/device.c", "vs_1_256"),
    ("dlls/d3d9/tests/device.c", "vs_3_256"),
    ("dlls/d3d9/tests/device.c", "vs_3_i16"),
    ("dlls/d3d9/tests/device.c", "vs_3_b16"),
    ("dlls/d3d9/tests/device.c", "ps_1_8"),
    ("dlls/d3d9/tests/device.c", "ps_2_32"),
    ("dlls/d3d9/tests/device.c", "ps_3_224"),
    ("dlls/d3d9/tests/device.c", "ps_2_0_boolint"),
    ("dlls/d3d9/tests/d3d9ex.c", "vs_1_256"),
    ("dlls/d3d9/tests/d3d9ex.c", "vs_3_256"),
    ("dlls/d3d9/tests/d3d9ex.c", "vs_3_i16"),
    ("dlls/d3d9/tests/d3d9ex.c", "vs_3_b16"),
    ("dlls/d3d9/tests/d3d9ex.c", "ps_1_8"),
    ("dlls/d3d9/tests/d3d9ex.c", "ps_2_32"),
    ("dlls/d3d9/tests/d3d9ex.c", "ps_3_224"),
    ("dlls/d3d9/tests/d3d9ex.c", "ps_2_0_boolint"),
    // Direct3D 8 refuses shader model 2 and c256.
    ("dlls/d3d8/tests/device.c", "vs_2_0"),
    ("dlls/d3d8/tests/device.c", "ps_2_0"),
    ("dlls/d3d8/tests/device.c", "ps_2_0_code"),
    ("dlls/d3d8/tests/device.c", "vs_1_256"),
];

/// Every complete shader passes, except `ps_code_bad` (Wine expects D3DERR_INVALIDCALL) and
/// the refusals listed above.
#[test]
fn complete_corpus_shaders_pass() {
    let mut failures = Vec::new();
    let mut passed = 0;
    let mut refused = Vec::new();
    let visual = corpus("d3d9_visual.json");
    for key in ["shaders", "composed_shaders"] {
        for s in visual[key].as_array().expect("shader list") {
            if s.get("complete").and_then(Value::as_bool) == Some(false) {
                continue;
            }
            let name = str_of(s, "name");
            let stage = if str_of(s, "stage") == "vertex" {
                Stage::Vertex
            } else {
                Stage::Pixel
            };
            let expect_fail = str_of(s, "expected_create_result") == "D3DERR_INVALIDCALL";
            // test_mvp_software_vertex_shaders runs on a mixed-vertex-processing device.
            let caps = if str_of(s, "function") == "test_mvp_software_vertex_shaders" {
                with_vp(DeviceCaps::default(), VertexProcessing::Mixed)
            } else {
                DeviceCaps::default()
            };
            match (
                check_tokens(&tokens(&s["tokens"]), stage, &caps),
                expect_fail,
            ) {
                (Ok(_), false) => passed += 1,
                (Err(CheckError::Invalid(e)), true) => refused.push(format!("{name}: {e}")),
                (Ok(_), true) => {
                    failures.push(format!("visual {name}: accepted, Wine expects failure"))
                }
                (Err(e), _) => {
                    failures.push(format!("visual {name} ({}): {e}", str_of(s, "profile")))
                }
            }
        }
    }
    let other = corpus("other_shaders.json");
    let mut skipped = 0;
    for (file, f) in other["files"].as_object().expect("files") {
        let caps = if file.contains("d3d8") {
            DeviceCaps::d3d8()
        } else {
            DeviceCaps::default()
        };
        for s in f["shaders"].as_array().expect("shaders") {
            if s.get("complete").and_then(Value::as_bool) == Some(false) {
                continue;
            }
            let name = str_of(s, "name");
            if EXPECTED_TO_FAIL.contains(&(file.as_str(), name)) {
                skipped += 1;
                continue;
            }
            let stage = if str_of(s, "stage") == "vertex" {
                Stage::Vertex
            } else {
                Stage::Pixel
            };
            match check_tokens(&tokens(&s["tokens"]), stage, &caps) {
                Ok(_) => passed += 1,
                Err(e) => failures.push(format!("{file} {name} ({}): {e}", str_of(s, "profile"))),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(skipped, EXPECTED_TO_FAIL.len());
    assert_eq!(refused.len(), 1, "{refused:?}");
    assert!(refused[0].starts_with("ps_code_bad"), "{refused:?}");
    eprintln!("{passed} complete corpus shaders pass; refused: {refused:?}");
}

/// vkd3d's own HLSL compiler output (SM2/SM3) passes, except the one shader that uses r12 in
/// ps_2_0 (which has 12 temporaries; Windows' compiler would not emit it) and the ps_2_0
/// shaders over ps_2_0's 64 arithmetic instruction slots.
#[test]
fn vkd3d_compiled_shaders_pass() {
    let data = corpus("vkd3d/vkd3d_sm23.json");
    let mut passed = 0;
    let mut refused = Vec::new();
    for f in data["files"].as_array().expect("files") {
        for s in f["shaders"].as_array().expect("shaders") {
            if s["compile_ok"] != Value::Bool(true) {
                continue;
            }
            let stage = if str_of(s, "kind") == "vertex" {
                Stage::Vertex
            } else {
                Stage::Pixel
            };
            match check_tokens(&tokens(&s["tokens"]), stage, &DeviceCaps::default()) {
                Ok(_) => passed += 1,
                Err(e) => refused.push(format!("{} #{}: {e}", str_of(f, "name"), s["id"])),
            }
        }
    }
    // vkd3d's compiler does not enforce ps_2_0's 64 arithmetic slots (it targets Vulkan);
    // Windows' compiler refuses such HLSL for ps_2_0, so these never reach a D3D9 runtime.
    let (slots, other): (Vec<_>, Vec<_>) = refused
        .iter()
        .partition(|r| r.contains("arithmetic instruction slots; ps_2_0 allows 64"));
    assert_eq!(other.len(), 1, "{}", refused.join("\n"));
    assert!(
        other[0].starts_with("determinant.shader_test") && other[0].contains("r12"),
        "{refused:?}"
    );
    assert_eq!(
        slots.len(),
        29,
        "{}",
        slots
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert_eq!(passed, 1570 - 29);
}
