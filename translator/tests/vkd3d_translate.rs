//! vkd3d's SM2/SM3 shader tests (`../shared/corpus/vkd3d/vkd3d_sm23.json`), translation only
//! (no GPU): every shader entry that compiled and is expected to compile natively decodes,
//! passes `check` with the default caps and translates to a validated module; every
//! (vertex shader, pixel shader) pair a runnable draw of either pass uses links and both
//! stages translate with the link's maps (`translate_pair`), the link decided from the two
//! programs being the link of the stages' lifted interfaces. The counts are asserted.
//!
//! What does not translate is listed in `vkd3d_translate_expectations.txt` (`NAME KIND
//! `FRAGMENT` reason`, one per line: the step that fails, see [`failure_kind`], and a part of
//! its message): the test fails on a failure the list does not name, on a listed entry that
//! now translates, so the list only shrinks, and on a listed entry that fails in another way
//! (another step, or a message without the fragment). `D3D9_VKD3D_TRANSLATE_OUTCOMES=FILE`
//! writes every failure as `NAME\tKIND\tMESSAGE` to fill the file.

#![allow(clippy::panic, clippy::unwrap_used, clippy::expect_used)]

mod common;
use common::{corpus, tokens};

use std::collections::{BTreeMap, BTreeSet};

use d3d9_translator::bytecode::{decode, Stage};
use d3d9_translator::check::{check, CheckedProgram, DeviceCaps};
use d3d9_translator::lift::link::{link_stages, PixelLinkInterface, VertexLinkInterface};
use d3d9_translator::lift::{
    link, translate_pair, translate_pixel_shader, translate_vertex_shader, LinkOptions, PairError,
    PairOptions, PairPixelStage, PairVertexStage, PixelShaderOptions, VertexShaderOptions,
};
use serde_json::Value;

/// Shader entries with `compile_ok` and not `expected_to_fail`.
const SHADERS: usize = 1542;
/// Distinct (file, vertex shader, pixel shader) pairs the runnable draws of both passes use,
/// where both shaders have bytecode and are expected to compile.
const PAIRS: usize = 1277;
/// Of those, pairs with a shader `check` refuses (each listed in the expectations).
const REFUSED_PAIRS: usize = 30;

/// Decode and check, as `CreateVertexShader` / `CreatePixelShader` do.
fn checked(tokens: &[u32], stage: Stage) -> Result<CheckedProgram, String> {
    let program = decode(tokens).map_err(|e| format!("decode: {e}"))?;
    check(&program, stage, &DeviceCaps::default()).map_err(|e| format!("check: {e}"))
}

/// Translate one shader alone.
fn translate_alone(tokens: &[u32], stage: Stage) -> Result<(), String> {
    let c = checked(tokens, stage)?;
    match stage {
        Stage::Vertex => translate_vertex_shader(&c, &VertexShaderOptions::default()).map(|_| ()),
        Stage::Pixel => translate_pixel_shader(&c, &PixelShaderOptions::default()).map(|_| ()),
    }
    .map_err(|e| format!("translate: {e}"))
}

/// Link a pair and translate both stages with the link's maps, as the device does
/// (`translate_pair`).
fn translate_linked(vs: &[u32], ps: &[u32], point_list: bool) -> Result<(), String> {
    let vc = checked(vs, Stage::Vertex)?;
    let pc = checked(ps, Stage::Pixel)?;
    let pixel = PairPixelStage::Shader {
        program: &pc,
        options: PixelShaderOptions::default(),
    };
    let options = PairOptions {
        point_list,
        ..PairOptions::default()
    };
    translate_pair(PairVertexStage::Shader(&vc), pixel, options).map_err(|e| match e {
        PairError::Vertex(e) => format!("translate linked vs: {e}"),
        PairError::Pixel(e) => format!("translate linked ps: {e}"),
        PairError::Link(e) => format!("link: {e}"),
        PairError::FixedFunction(e) => e.to_string(),
    })?;
    Ok(())
}

/// The step a failure message comes from: the message's prefix (`decode`, `check`,
/// `translate`, `link`, `translate vs`, …) with a space as `-`, and for `check` whether the
/// shader is `invalid` or `unsupported` (`check-invalid`).
fn failure_kind(message: &str) -> String {
    let (step, rest) = message.split_once(": ").unwrap_or((message, ""));
    let mut kind = step.replace(' ', "-");
    if step == "check" {
        if let Some((class, _)) = rest.split_once(": ") {
            kind = format!("check-{class}");
        }
    }
    kind
}

/// One listed failure: its kind ([`failure_kind`]), a part of its message, and why.
#[derive(Debug)]
struct Expectation {
    kind: String,
    fragment: String,
    reason: String,
}

/// The expectations by name, from `NAME KIND `FRAGMENT` reason` lines.
fn expectations(text: &str) -> Result<BTreeMap<String, Expectation>, String> {
    let mut out = BTreeMap::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let want = || format!("want `NAME KIND `FRAGMENT` reason`: {line}");
        let (name, rest) = line.split_once(' ').ok_or_else(want)?;
        let (kind, rest) = rest.split_once(' ').ok_or_else(want)?;
        let (fragment, reason) = rest
            .strip_prefix('`')
            .and_then(|r| r.split_once('`'))
            .ok_or_else(want)?;
        if fragment.is_empty() || reason.trim().is_empty() || kind.starts_with('`') {
            return Err(want());
        }
        let listed = Expectation {
            kind: kind.to_string(),
            fragment: fragment.to_string(),
            reason: reason.trim().to_string(),
        };
        if out.insert(name.to_string(), listed).is_some() {
            return Err(format!("{name} listed twice"));
        }
    }
    Ok(out)
}

/// The bytecode of a draw's vertex shader: a shader entry of the file, or the runner's
/// default VS for the profile and compile options. `None` when it has none.
fn draw_vs<'a>(data: &'a Value, file: &'a Value, vs: &'a Value) -> Option<(String, &'a Value)> {
    if vs["default_vs"].as_bool() == Some(true) {
        let profile = vs["profile"].as_str()?;
        let key = match vs["compile_options"].as_array().map(Vec::as_slice) {
            Some([option]) => format!("{profile}:{}", option.as_str()?),
            _ => profile.to_string(),
        };
        let b = &data["default_vertex_shader"]["bytecode"][key.as_str()];
        return (b["compile_ok"].as_bool() == Some(true))
            .then(|| (format!("default-{key}"), &b["tokens"]));
    }
    let id = vs["shader_id"].as_u64()?;
    let s = shader(file, id)?;
    Some((format!("vs{id}"), &s["tokens"]))
}

/// A file's shader entry by id, when it compiled and is expected to.
fn shader(file: &Value, id: u64) -> Option<&Value> {
    file["shaders"]
        .as_array()?
        .iter()
        .find(|s| s["id"].as_u64() == Some(id))
        .filter(|s| {
            s["compile_ok"].as_bool() == Some(true) && s["expected_to_fail"].as_bool() != Some(true)
        })
}

/// One (vertex shader, pixel shader) pair a runnable draw uses.
struct DrawPair {
    /// `FILE:VS+psN`, `:points` for a point list.
    key: String,
    vs: Vec<u32>,
    ps: Vec<u32>,
    point_list: bool,
}

/// The distinct pairs the runnable draws of both passes use, where both shaders have
/// bytecode and are expected to compile.
fn draw_pairs(data: &Value) -> Vec<DrawPair> {
    let mut seen = BTreeSet::new();
    let mut pairs = Vec::new();
    for file in data["files"].as_array().expect("files") {
        let name = file["name"].as_str().expect("file name");
        for pass in ["sm2", "sm3"] {
            for block in file["passes"][pass]["test_blocks"]
                .as_array()
                .expect("blocks")
            {
                for c in block["commands"].as_array().expect("commands") {
                    let Some(draw) = c.get("draw") else { continue };
                    if c["applies"].as_bool() != Some(true) {
                        continue;
                    }
                    let Some((vs_name, vs_tokens)) = draw_vs(data, file, &draw["vs"]) else {
                        continue;
                    };
                    let Some(ps_id) = draw["ps"]["shader_id"].as_u64() else {
                        continue;
                    };
                    let Some(ps) = shader(file, ps_id) else {
                        continue;
                    };
                    let point_list = draw["topology"].as_str() == Some("point list");
                    let key = format!(
                        "{name}:{vs_name}+ps{ps_id}{}",
                        if point_list { ":points" } else { "" }
                    );
                    if seen.insert(key.clone()) {
                        pairs.push(DrawPair {
                            key,
                            vs: tokens(vs_tokens),
                            ps: tokens(&ps["tokens"]),
                            point_list,
                        });
                    }
                }
            }
        }
    }
    pairs
}

#[test]
fn vkd3d_shaders_and_draw_pairs_translate() {
    let data = corpus("vkd3d/vkd3d_sm23.json");
    let dump = std::env::var("D3D9_VKD3D_TRANSLATE_OUTCOMES").ok();
    let expected = match expectations(include_str!("vkd3d_translate_expectations.txt")) {
        Ok(e) => e,
        // While the file is being filled from a dump, its lines may not parse yet.
        Err(e) if dump.is_some() => {
            eprintln!("vkd3d_translate_expectations.txt: {e}");
            BTreeMap::new()
        }
        Err(e) => panic!("vkd3d_translate_expectations.txt: {e}"),
    };
    let mut results: BTreeMap<String, Result<(), String>> = BTreeMap::new();
    let mut shaders = 0;
    for file in data["files"].as_array().expect("files") {
        let name = file["name"].as_str().expect("file name");
        for s in file["shaders"].as_array().expect("shaders") {
            if s["compile_ok"].as_bool() != Some(true)
                || s["expected_to_fail"].as_bool() == Some(true)
            {
                continue;
            }
            shaders += 1;
            let stage = match s["kind"].as_str() {
                Some("vertex") => Stage::Vertex,
                _ => Stage::Pixel,
            };
            let key = format!("{name}#{}", s["id"]);
            results.insert(key, translate_alone(&tokens(&s["tokens"]), stage));
        }
    }
    let pairs = draw_pairs(&data);
    for pair in &pairs {
        let result = translate_linked(&pair.vs, &pair.ps, pair.point_list);
        results.insert(pair.key.clone(), result);
    }
    let mut unexpected = Vec::new();
    let mut fixed = Vec::new();
    let mut changed = Vec::new();
    let mut failed = 0;
    let mut outcomes = Vec::new();
    for (key, result) in &results {
        if let Err(e) = result {
            outcomes.push(format!("{key}\t{}\t{e}", failure_kind(e)));
        }
        match (result, expected.get(key)) {
            (Err(e), None) => unexpected.push(format!("{key} {e}")),
            (Err(e), Some(listed)) => {
                failed += 1;
                let kind = failure_kind(e);
                if kind != listed.kind || !e.contains(&listed.fragment) {
                    changed.push(format!(
                        "{key}: fails as {kind} ({e}), listed as {} `{}`",
                        listed.kind, listed.fragment
                    ));
                }
            }
            (Ok(()), Some(listed)) => fixed.push(format!("{key} (listed: {})", listed.reason)),
            (Ok(()), None) => {}
        }
    }
    if let Some(path) = dump {
        std::fs::write(&path, outcomes.join("\n") + "\n").expect("outcomes written");
    }
    let stale: Vec<&String> = expected
        .keys()
        .filter(|k| !results.contains_key(*k))
        .collect();
    eprintln!(
        "vkd3d translation: {shaders} shaders, {} pairs; {} translate, {failed} fail as listed",
        pairs.len(),
        results.len() - failed - unexpected.len()
    );
    assert!(
        unexpected.is_empty(),
        "failures not in the expectations:\n{}",
        unexpected.join("\n")
    );
    assert!(
        fixed.is_empty(),
        "listed entries that now translate (remove them):\n{}",
        fixed.join("\n")
    );
    assert!(
        changed.is_empty(),
        "listed entries that fail in another way than listed (update the kind and fragment):\n{}",
        changed.join("\n")
    );
    assert!(
        stale.is_empty(),
        "listed entries that name nothing: {stale:?}"
    );
    assert_eq!(shaders, SHADERS);
    assert_eq!(pairs.len(), PAIRS);
}

/// Over every draw pair: what linking reads of each checked program before anything is lifted
/// (`VertexLinkInterface::of`, `PixelLinkInterface::of`) is what the stages' lifted interfaces
/// say, and the links `translate_pair` decides from it under every draw state (flat shading,
/// point list, vertex fog, point sprites) are the links of the lifted interfaces.
#[test]
fn links_from_the_programs_are_the_links_of_the_lifted_interfaces() {
    let data = corpus("vkd3d/vkd3d_sm23.json");
    let pairs = draw_pairs(&data);
    let (mut compared, mut refused) = (0, 0);
    for pair in &pairs {
        // Pairs with a shader `check` refuses (listed in the expectations) never link.
        let (Ok(vc), Ok(pc)) = (
            checked(&pair.vs, Stage::Vertex),
            checked(&pair.ps, Stage::Pixel),
        ) else {
            refused += 1;
            continue;
        };
        let vs_alone = translate_vertex_shader(&vc, &VertexShaderOptions::default()).unwrap();
        let ps_alone = translate_pixel_shader(&pc, &PixelShaderOptions::default()).unwrap();
        let vs = VertexLinkInterface::of(vc.program());
        let ps = PixelLinkInterface::of(pc.program());
        assert_eq!(
            vs,
            VertexLinkInterface::from(&vs_alone.interface),
            "{}",
            pair.key
        );
        assert_eq!(
            ps,
            PixelLinkInterface::from(&ps_alone.interface),
            "{}",
            pair.key
        );
        for flags in 0..16u8 {
            let options = LinkOptions {
                flat_shading: flags & 1 != 0,
                point_list: flags & 2 != 0,
                vertex_fog: flags & 4 != 0,
                ..LinkOptions::default()
            };
            let (mut from_programs, mut lifted) = (vs.clone(), (&vs_alone.interface).into());
            if flags & 8 != 0 {
                from_programs.with_sprite_texture_coordinates(&ps);
                VertexLinkInterface::with_sprite_texture_coordinates(&mut lifted, &ps);
            }
            let want = link_stages(&lifted, &(&ps_alone.interface).into(), &options);
            assert_eq!(
                link_stages(&from_programs, &ps, &options),
                want,
                "{} {options:?}",
                pair.key
            );
            if flags & 8 == 0 {
                assert_eq!(
                    link(&vs_alone.interface, &ps_alone.interface, &options),
                    want
                );
            }
        }
        compared += 1;
    }
    assert_eq!((compared, refused), (PAIRS - REFUSED_PAIRS, REFUSED_PAIRS));
}

/// The expectations' format states the outcome: a kind and a fragment are required, and the
/// kind is the failing step (with `check`'s class).
#[test]
fn expectation_lines_state_the_kind_and_a_part_of_the_message() {
    let listed = expectations("a.shader_test#2 check-invalid `arithmetic slots` why").unwrap();
    let a = &listed["a.shader_test#2"];
    assert_eq!(
        (a.kind.as_str(), a.fragment.as_str(), a.reason.as_str()),
        ("check-invalid", "arithmetic slots", "why")
    );
    for bad in [
        "a.shader_test#2 why",
        "a.shader_test#2 check why",
        "a.shader_test#2 check `` why",
        "a.shader_test#2 check `x`",
    ] {
        assert!(expectations(bad).is_err(), "{bad}");
    }
    assert_eq!(
        failure_kind("check: invalid: instruction 3 (add) ..."),
        "check-invalid"
    );
    assert_eq!(
        failure_kind("check: unsupported: ps_2_sw"),
        "check-unsupported"
    );
    assert_eq!(
        failure_kind("translate linked ps: unsupported: x"),
        "translate-linked-ps"
    );
    assert_eq!(failure_kind("decode: token 3: ..."), "decode");
}
