//! Replays vkd3d's SM2/SM3 shader tests (`../shared/corpus/vkd3d/vkd3d_sm23.json`) through
//! the device and prints every probe that does not pass, then per pass: passed / failed /
//! unsupported / usable.
//!
//! `cargo run -p d3d9-backend --example vkd3d-conformance -- [--pass sm2|sm3] [--file NAME]
//! [--all]` (`--all` prints passing probes too).

#[path = "../tests/vkd3d/mod.rs"]
mod vkd3d;

use std::process::ExitCode;

fn main() -> ExitCode {
    let mut passes: Vec<String> = vkd3d::PASSES.iter().map(|p| p.to_string()).collect();
    let mut file = None;
    let mut all = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--pass" => match args.next() {
                Some(p) if vkd3d::PASSES.contains(&p.as_str()) => passes = vec![p],
                other => {
                    eprintln!("--pass wants sm2 or sm3, not {other:?}");
                    return ExitCode::FAILURE;
                }
            },
            "--file" => match args.next() {
                Some(f) => file = Some(f),
                None => {
                    eprintln!("--file wants a file name (abs.shader_test or abs)");
                    return ExitCode::FAILURE;
                }
            },
            "--all" => all = true,
            other => {
                eprintln!("usage: vkd3d-conformance [--pass sm2|sm3] [--file NAME] [--all] (not {other:?})");
                return ExitCode::FAILURE;
            }
        }
    }
    let corpus = match vkd3d::load_corpus() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    for pass in &passes {
        let start = std::time::Instant::now();
        let results = match vkd3d::run_pass(&corpus, pass, file.as_deref()) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::FAILURE;
            }
        };
        for r in &results {
            match &r.outcome {
                vkd3d::Outcome::Pass if all => println!("{} PASS", r.key()),
                vkd3d::Outcome::Pass => {}
                vkd3d::Outcome::Fail(why) => println!("{} FAIL {why}", r.key()),
                vkd3d::Outcome::Unsupported(why) => println!("{} UNSUPPORTED {why}", r.key()),
            }
        }
        let c = vkd3d::counts(&results);
        println!(
            "{pass}: {} passed / {} failed / {} unsupported / {} usable ({:.1} s)",
            c.passed,
            c.failed,
            c.unsupported,
            c.usable,
            start.elapsed().as_secs_f64()
        );
    }
    ExitCode::SUCCESS
}
