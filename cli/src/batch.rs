//! `d3d9-translate batch DIR... [--lang L] [--out DIR] [--jobs N] [--json REPORT] [--strict]`:
//! translate every D3D9 shader under some folders, in parallel, and summarise.
//!
//! A file is a shader when it holds raw D3D9 bytecode (a whole number of little-endian
//! tokens whose first is a `vs_*`/`ps_*` version token); every other file is "not a shader"
//! with the reason (empty, a DXBC container, not a multiple of four bytes, no version
//! token). Identical blobs are translated once (keyed by their bytes).

use crate::translate::FloatModeArg;
use crate::translate::{
    emit, translate_bytes, vertex_options, BackendOptions, Lang, TranslateError,
};
use clap::Args;
use d3d9_translator::bytecode::decode_bytes;
use d3d9_translator::check::DeviceCaps;
use d3d9_translator::ctab::ConstantTable;
use d3d9_translator::lift::VertexShaderOptions;
use d3d9_translator::signature::Signature;
use rayon::prelude::*;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// Arguments of `batch`.
#[derive(Debug, Args)]
pub struct BatchArgs {
    /// Folders to walk (recursively).
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// Output language.
    #[arg(long, value_enum, default_value = "wgsl")]
    pub lang: Lang,
    /// Write outputs here, mirroring the input tree (`a/b.vso` → `OUT/a/b.vso.wgsl`; with
    /// several input folders, each under its own folder name).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Write a JSON report of every file here.
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// Exit non-zero when any file did not translate.
    #[arg(long)]
    pub strict: bool,
    /// D3D9 float rules.
    #[arg(long, value_enum, default_value = "legacy")]
    pub float_mode: FloatModeArg,
    #[command(flatten)]
    pub backend: BackendOptions,
}

/// What became of one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Translated,
    /// D3D9 refuses it (malformed bytecode or a broken creation rule).
    Invalid,
    /// Legal D3D9 this project does not translate yet.
    Unsupported,
    /// Translation or a back end failed (a bug of this project).
    Failed,
    NotAShader,
}

impl Outcome {
    fn label(self) -> &'static str {
        match self {
            Outcome::Translated => "translated",
            Outcome::Invalid => "invalid",
            Outcome::Unsupported => "unsupported",
            Outcome::Failed => "failed",
            Outcome::NotAShader => "not a shader",
        }
    }
}

/// The result of one file, as the JSON report lists it.
#[derive(Debug, Clone, Serialize)]
pub struct FileReport {
    pub path: String,
    pub outcome: Outcome,
    /// Why it did not translate (the D3D9 rule, the missing feature, what the file is).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Profile (`vs_2_0`) when the version token is readable.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// Input semantics (`texcoord0`).
    pub inputs: Vec<String>,
    /// Output semantics.
    pub outputs: Vec<String>,
    /// The CTAB constant table as a side table: `c0-c3 WorldViewProj float4x4`, so that a
    /// porter can see which `c#` the application must fill with what.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub constants: Vec<String>,
    /// Why the CTAB block could not be read, if it could not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub constant_table_error: Option<String>,
    /// Where the output was written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output: Option<String>,
    /// Same bytes as this earlier file: translated once.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duplicate_of: Option<String>,
    /// Decode + check + translate, microseconds.
    pub translate_us: u64,
    /// Back-end output, microseconds.
    pub emit_us: u64,
}

/// One translated shader in memory (what a shader cache keeps).
#[derive(Debug, Clone)]
pub struct BatchResult {
    pub report: FileReport,
    /// The output bytes in the chosen language, when translated.
    pub output: Option<Vec<u8>>,
}

/// Why a file is not a shader, or `None` if it looks like raw D3D9 bytecode.
pub fn not_a_shader(bytes: &[u8]) -> Option<String> {
    if bytes.is_empty() {
        return Some("empty file".into());
    }
    if bytes.starts_with(b"DXBC") {
        return Some("DXBC container (Direct3D 10+ bytecode)".into());
    }
    if !bytes.chunks_exact(4).remainder().is_empty() {
        return Some(format!(
            "{} bytes is not a whole number of tokens",
            bytes.len()
        ));
    }
    let first = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
    if !matches!(first >> 16, 0xFFFE | 0xFFFF) {
        return Some(format!(
            "first token {first:#010x} is not a vs/ps version token"
        ));
    }
    None
}

/// Translate one blob into `lang`: the shared worker of `batch` and [`translate_batch`].
pub fn translate_one(
    path: &str,
    bytes: &[u8],
    lang: Lang,
    options: &VertexShaderOptions,
    backend: &BackendOptions,
) -> BatchResult {
    let mut report = FileReport {
        path: path.to_string(),
        outcome: Outcome::Translated,
        reason: None,
        version: None,
        inputs: Vec::new(),
        outputs: Vec::new(),
        constants: Vec::new(),
        constant_table_error: None,
        output: None,
        duplicate_of: None,
        translate_us: 0,
        emit_us: 0,
    };
    if let Some(why) = not_a_shader(bytes) {
        report.outcome = Outcome::NotAShader;
        report.reason = Some(why);
        return BatchResult {
            report,
            output: None,
        };
    }
    let mut constant_table = None;
    if let Ok(program) = decode_bytes(bytes) {
        report.version = Some(program.version.profile());
        let sig = Signature::of(&program);
        let names = |els: &[d3d9_translator::signature::SignatureElement]| {
            els.iter()
                .map(|e| format!("{}{}", e.semantic.usage.name(), e.semantic.index))
                .collect()
        };
        report.inputs = names(&sig.inputs);
        report.outputs = names(&sig.outputs);
        match ConstantTable::of(&program) {
            Some(Ok(table)) => {
                constant_table = Some(table.clone());
                report.constants = table
                    .constants
                    .iter()
                    .map(|c| format!("{} {} {}", c.registers(), c.name, c.ty))
                    .collect();
            }
            Some(Err(e)) => report.constant_table_error = Some(e.to_string()),
            None => {}
        }
    }
    let start = Instant::now();
    let translated = translate_bytes(bytes, &DeviceCaps::default(), options);
    report.translate_us = start.elapsed().as_micros() as u64;
    let result = translated.and_then(|t| {
        let start = Instant::now();
        let out = emit(&t, lang, backend).map(|o| {
            crate::constants::annotate(
                o,
                constant_table.as_ref(),
                &t.interface,
                lang.takes_comments(),
            )
        });
        report.emit_us = start.elapsed().as_micros() as u64;
        out
    });
    let output = match result {
        Ok(out) => Some(out),
        Err(e) => {
            report.outcome = match e {
                // Bytecode that does not decode is malformed: D3D9 refuses it too.
                TranslateError::Decode(_) | TranslateError::Invalid(_) => Outcome::Invalid,
                TranslateError::Unsupported(_) => Outcome::Unsupported,
                TranslateError::Failed(_) => Outcome::Failed,
            };
            report.reason = Some(e.to_string());
            None
        }
    };
    BatchResult { report, output }
}

/// Translate many `(name, bytes)` blobs in parallel on the current rayon pool (wrap the call
/// in `ThreadPool::install` to choose the threads), each distinct blob once; one result per
/// input, in input order, with the output bytes in `lang`. `progress` is called once per
/// input. A compatibility layer can call this at load time to warm its shader cache.
pub fn translate_batch(
    inputs: &[(String, Vec<u8>)],
    lang: Lang,
    options: &VertexShaderOptions,
    backend: &BackendOptions,
    progress: &(dyn Fn() + Sync),
) -> Vec<BatchResult> {
    let mut first: HashMap<&[u8], usize> = HashMap::new();
    let mut unique = Vec::new();
    let mut origin = Vec::with_capacity(inputs.len());
    for (i, (_, bytes)) in inputs.iter().enumerate() {
        let k = *first.entry(bytes.as_slice()).or_insert_with(|| {
            unique.push(i);
            i
        });
        origin.push(k);
    }
    let done: HashMap<usize, BatchResult> = unique
        .par_iter()
        .map(|&i| {
            let (path, bytes) = &inputs[i];
            let r = translate_one(path, bytes, lang, options, backend);
            progress();
            (i, r)
        })
        .collect();
    inputs
        .iter()
        .enumerate()
        .filter_map(|(i, (path, _))| {
            let k = origin[i];
            let mut r = done.get(&k)?.clone();
            if k != i {
                progress();
                r.report.path = path.clone();
                r.report.duplicate_of = Some(inputs[k].0.clone());
                r.report.translate_us = 0;
                r.report.emit_us = 0;
            }
            Some(r)
        })
        .collect()
}

/// Every file under `dir`, sorted, as (path relative to `dir`, full path).
fn walk(dir: &Path, rel: &Path, out: &mut Vec<(PathBuf, PathBuf)>) -> std::io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let path = e.path();
        let r = rel.join(e.file_name());
        if e.file_type()?.is_dir() {
            walk(&path, &r, out)?;
        } else {
            out.push((r, path));
        }
    }
    Ok(())
}

/// Summary and JSON report of a batch run.
#[derive(Debug, Serialize)]
struct Report<'a> {
    lang: &'static str,
    files: usize,
    distinct: usize,
    seconds: f64,
    counts: BTreeMap<&'static str, usize>,
    reasons: BTreeMap<String, usize>,
    results: Vec<&'a FileReport>,
}

/// The reason grouping key: the message up to its first detail (token offsets and
/// register numbers differ from file to file).
fn reason_group(outcome: Outcome, reason: &str) -> String {
    let trimmed = reason
        .split(": ")
        .filter(|part| !part.starts_with("token ") && !part.starts_with("instruction "))
        .take(2)
        .collect::<Vec<_>>()
        .join(": ");
    format!("{}: {trimmed}", outcome.label())
}

/// Run `batch`.
pub fn run(args: &BatchArgs) -> ExitCode {
    let started = Instant::now();
    let mut files = Vec::new();
    let several = args.dirs.len() > 1;
    for dir in &args.dirs {
        let base = if several {
            PathBuf::from(dir.file_name().unwrap_or(dir.as_os_str()))
        } else {
            PathBuf::new()
        };
        if let Err(e) = walk(dir, &base, &mut files) {
            eprintln!("d3d9-translate: {}: {e}", dir.display());
            return ExitCode::FAILURE;
        }
    }
    let mut inputs = Vec::with_capacity(files.len());
    let mut unreadable = Vec::new();
    for (rel, full) in &files {
        match std::fs::read(full) {
            Ok(b) => inputs.push((rel.display().to_string(), b)),
            Err(e) => unreadable.push(format!("{}: {e}", full.display())),
        }
    }
    let bar = if std::io::stderr().is_terminal() {
        indicatif::ProgressBar::new(inputs.len() as u64)
    } else {
        indicatif::ProgressBar::hidden()
    };
    let pool = match rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs.unwrap_or(0))
        .build()
    {
        Ok(p) => p,
        Err(e) => {
            eprintln!("d3d9-translate: thread pool: {e}");
            return ExitCode::FAILURE;
        }
    };
    let tick = || bar.inc(1);
    let options = vertex_options(args.float_mode);
    let results =
        pool.install(|| translate_batch(&inputs, args.lang, &options, &args.backend, &tick));
    bar.finish_and_clear();
    let mut reports = Vec::with_capacity(results.len());
    let mut write_errors = Vec::new();
    for mut r in results {
        if let (Some(out_dir), Some(bytes)) = (&args.out, &r.output) {
            let target = out_dir.join(format!("{}.{}", r.report.path, args.lang.extension()));
            let written = target
                .parent()
                .map_or(Ok(()), std::fs::create_dir_all)
                .and_then(|()| std::fs::write(&target, bytes));
            match written {
                Ok(()) => r.report.output = Some(target.display().to_string()),
                Err(e) => write_errors.push(format!("{}: {e}", target.display())),
            }
        }
        reports.push(r.report);
    }
    let mut counts: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
    for r in &reports {
        *counts.entry(r.outcome.label()).or_default() += 1;
        if let Some(reason) = &r.reason {
            *reasons.entry(reason_group(r.outcome, reason)).or_default() += 1;
        }
    }
    let report = Report {
        lang: args.lang.extension(),
        files: reports.len(),
        distinct: reports.iter().filter(|r| r.duplicate_of.is_none()).count(),
        seconds: started.elapsed().as_secs_f64(),
        counts,
        reasons,
        results: reports.iter().collect(),
    };
    let mut summary = format!(
        "{} files ({} distinct) in {:.2} s\n",
        report.files, report.distinct, report.seconds
    );
    for outcome in [
        Outcome::Translated,
        Outcome::Invalid,
        Outcome::Unsupported,
        Outcome::Failed,
        Outcome::NotAShader,
    ] {
        let n = report.counts.get(outcome.label()).copied().unwrap_or(0);
        summary.push_str(&format!("{:>7} {}\n", n, outcome.label()));
        for (reason, count) in &report.reasons {
            if let Some(rest) = reason.strip_prefix(&format!("{}: ", outcome.label())) {
                summary.push_str(&format!("{count:>11}  {rest}\n"));
            }
        }
    }
    print!("{summary}");
    for e in unreadable.iter().chain(&write_errors) {
        eprintln!("d3d9-translate: {e}");
    }
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(&report).unwrap_or_default();
        if let Err(e) = std::fs::write(path, text) {
            eprintln!("d3d9-translate: {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
    }
    let all_translated = report.counts.get("translated").copied().unwrap_or(0) == report.files;
    if !unreadable.is_empty() || !write_errors.is_empty() || (args.strict && !all_translated) {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
