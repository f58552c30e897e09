//! The disassembler against Wine's own assembly text. Wine's comments are informal, so only
//! shaders whose listing was checked by hand to be in canonical form are compared line by
//! line; every other complete corpus shader must at least disassemble to one line per
//! instruction and comment block.

mod common;
use common::{complete_shaders, corpus, tokens, ASM_PAIRS, COMPLETE_SHADERS};

use d3d9_translator::asm::disassemble;
use d3d9_translator::bytecode::decode;

/// (function, shader name) in `d3d9_visual.json` whose listing comments are canonical text.
const CANONICAL_VISUAL: &[(&str, &str)] = &[
    ("test_mova", "mova_test"),
    ("texbem_test", "double_texbem_code"),
    ("test_fragment_coords", "shader_frac_code"),
    ("test_fetch4", "ps_code_texldb"),
    ("shadow_test", "ps14_code"),
    ("test_mvp_software_vertex_shaders", "reladdr_shader_code"),
    ("test_vshader_input", "texcoord_color_shader_code_3"),
    ("test_compare_instructions", "shader_sge_vec_code"),
];

#[test]
fn hand_checked_visual_listings_match_line_by_line() {
    let visual = corpus("d3d9_visual.json");
    let mut compared = 0;
    for (function, name) in CANONICAL_VISUAL {
        let shader = visual["shaders"]
            .as_array()
            .expect("shaders")
            .iter()
            .find(|s| s["function"] == *function && s["name"] == *name)
            .expect("shader in corpus");
        let program = decode(&tokens(&shader["tokens"])).expect("decodes");
        let text = disassemble(&program);
        let ours: Vec<&str> = text.lines().map(str::trim).collect();
        let wine: Vec<&str> = shader["listing"]
            .as_array()
            .expect("listing")
            .iter()
            .map(|l| l["comment"].as_str().unwrap_or("").trim())
            .filter(|c| !c.eq_ignore_ascii_case("end"))
            .collect();
        assert_eq!(ours, wine, "{function}/{name}");
        compared += 1;
    }
    assert_eq!(compared, CANONICAL_VISUAL.len());
}

/// `asm_pairs.json` entries whose assembly text is already what we print (checked by hand).
const CANONICAL_PAIRS: &[&str] = &[
    "ps_1_3\nmov_sat r0, -r1_bx2\n",
    "ps_1_4\ntexld r5, r2_dz\n",
    "ps_1_4\nadd r0, r1, r2_bx2\n",
    "vs_2_0\nmov r0, c0[a0.w].x\n",
    "vs_2_0\ncallnz l0, !b0\nret\nlabel l0\nret\n",
    "vs_2_x\nsetp_gt p0, r0, r1\n(!p0) add r2, r2, r3\n",
    "vs_2_x\nif_ge r0, r1\nendif\n",
    "ps_2_0\ndcl_2d s2\ntexldp r0, t1, s2\n",
    "ps_2_x\ndcl_2d s2\ntexldd r0, v1, s2, r3, r4\n",
    "ps_3_0\ntexldd_pp r0, r1, r2, r3, r4\n",
    "ps_3_0\ndcl_2d_pp s0\n",
    "vs_3_0\nmova_sat a0.x, r1\n",
];

#[test]
fn hand_checked_asm_pairs_print_their_own_text() {
    let pairs = corpus("asm_pairs.json");
    let mut found = 0;
    for p in pairs.as_array().expect("array") {
        let asm = p["asm"].as_str().expect("asm").replace("\r\n", "\n");
        // Wine writes some headers as `ps.3.0`.
        let asm = match asm.split_once('\n') {
            Some((head, rest)) => format!("{}\n{rest}", head.replace('.', "_")),
            None => asm,
        };
        let asm = if asm.ends_with('\n') {
            asm
        } else {
            format!("{asm}\n")
        };
        // Wine writes `c0[a0.w]`; we print `c[a0.w]`: compare after the same rewrite.
        let Some(_) = CANONICAL_PAIRS.iter().find(|c| **c == asm) else {
            continue;
        };
        found += 1;
        let program = decode(&tokens(&p["tokens"])).expect("decodes");
        let want: String = asm
            .lines()
            .enumerate()
            .map(|(i, l)| {
                let l = l.replace("c0[a0.w]", "c[a0.w]");
                if i == 0 {
                    format!("{l}\n")
                } else {
                    format!("    {l}\n")
                }
            })
            .collect();
        assert_eq!(disassemble(&program), want);
    }
    assert_eq!(found, CANONICAL_PAIRS.len());
}

#[test]
fn every_complete_shader_prints_one_line_per_instruction() {
    let mut shaders = Vec::new();
    for p in corpus("asm_pairs.json").as_array().expect("array") {
        shaders.push(tokens(&p["tokens"]));
    }
    shaders.extend(complete_shaders().into_iter().map(|(_, t)| t));
    for t in &shaders {
        let program = decode(t).expect("decodes");
        let text = disassemble(&program);
        assert_eq!(
            text.lines().count(),
            1 + program.instructions.len() + program.comments.len()
        );
        assert!(text.lines().skip(1).all(|l| l.starts_with("    ")));
    }
    assert_eq!(shaders.len(), ASM_PAIRS + COMPLETE_SHADERS);
}
