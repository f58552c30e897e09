//! Building a Wine test program against libd3d9 and running each of its test functions in
//! its own process: compile with the project's compile line, list the functions the
//! `START_TEST` body calls, find each `static` one in the symbol table, run it as
//! `PROGRAM --run NAME OFFSET` (see `wine/test.h`), count its `WINETEST` lines.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::support::MINGW_INCLUDE;
pub use crate::support::{libd3d9_dir, manifest_dir};

/// The D3D9 API headers (Debian's mingw-w64-common), after libc's own headers.
/// Flags that keep every `static` test function a separate symbol of its own name (no
/// inlining, cloning or merging; no noreturn inference, which would drop the calls after a
/// function that always aborts), so the runner can find each in the symbol table.
const KEEP_FUNCTIONS: [&str; 9] = [
    "-g",
    "-O1",
    "-fno-inline",
    "-fno-inline-functions-called-once",
    "-fno-ipa-icf",
    "-fno-ipa-sra",
    "-fno-ipa-cp",
    "-fno-partial-inlining",
    "-fno-ipa-pure-const",
];

/// `<workspace>/../shared/corpus/wine-tests/d3d9/<file>`, or a panic naming the path looked
/// for.
pub fn wine_test_source(file: &str) -> PathBuf {
    let manifest = manifest_dir();
    let workspace = manifest.parent().unwrap_or(&manifest);
    let beside = workspace.parent().unwrap_or(workspace);
    let path = beside.join("shared/corpus/wine-tests/d3d9").join(file);
    assert!(
        path.is_file(),
        "Wine's d3d9 test not found: looked for {}",
        path.display()
    );
    path
}

/// The number in environment variable `name`, `default` when unset; panics on anything else.
pub fn env_number(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(v) => v
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("{name}={v}: not a number")),
        Err(_) => default,
    }
}

/// Compiles `sources` (C, with `wine/test.h`) into `exe` with the project's compile line,
/// linking libd3d9 from `d3d9_dir` when given.
pub fn compile(sources: &[PathBuf], exe: &Path, d3d9_dir: Option<&Path>) {
    let manifest = manifest_dir();
    let compiler = std::env::var("CC").unwrap_or_else(|_| "cc".to_string());
    // Built beside and renamed into place: another run of the suite may be running the
    // executable now (it keeps the file it started).
    let partial = exe.with_extension(format!("partial-{}", std::process::id()));
    let mut cmd = Command::new(compiler);
    cmd.arg("-std=gnu11")
        .arg("-I")
        .arg(manifest.join("include"))
        .args(["-idirafter", MINGW_INCLUDE])
        .arg("-I")
        .arg(manifest.join("tests/wine"))
        .args(KEEP_FUNCTIONS)
        .args(sources)
        .arg("-o")
        .arg(&partial);
    if let Some(dir) = d3d9_dir {
        cmd.arg("-L").arg(dir).arg("-ld3d9");
        cmd.arg(format!("-Wl,-rpath,{}", dir.display()));
    }
    cmd.arg("-lm");
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::rename(&partial, exe)
        .unwrap_or_else(|e| panic!("{} -> {}: {e}", partial.display(), exe.display()));
}

/// The functions the `START_TEST(name)` body calls as `function();`, in order.
pub fn test_functions(source: &str, name: &str) -> Vec<String> {
    let start = source
        .find(&format!("START_TEST({name})"))
        .unwrap_or_else(|| panic!("no START_TEST({name})"));
    let body = &source[start..];
    let open = body.find('{').expect("START_TEST body");
    let mut depth = 0usize;
    let mut end = body.len();
    for (i, c) in body[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    end = open + i;
                    break;
                }
            }
            _ => {}
        }
    }
    body[open..end]
        .lines()
        .filter_map(|line| line.trim().strip_suffix("();"))
        .filter(|f| !f.is_empty() && f.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .map(str::to_string)
        .collect()
}

/// Each function's address minus `main`'s, from `nm` on the built executable (the same in
/// every run of a PIE, whatever its load address).
pub fn offsets_from_main(exe: &Path, functions: &[String]) -> Vec<(String, i64)> {
    let out = Command::new("nm")
        .arg("--defined-only")
        .arg(exe)
        .output()
        .expect("nm");
    assert!(out.status.success(), "nm {} failed", exe.display());
    let mut addresses: BTreeMap<String, Vec<i64>> = BTreeMap::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if let [address, "t" | "T", name] = fields[..] {
            let address = i64::from_str_radix(address, 16).expect("nm address");
            addresses.entry(name.to_string()).or_default().push(address);
        }
    }
    let unique = |name: &str| match addresses.get(name).map(Vec::as_slice) {
        Some([address]) => *address,
        other => panic!(
            "{}: symbol {name}: want one definition, found {other:?} (inlined or renamed?)",
            exe.display()
        ),
    };
    let main = unique("main");
    functions
        .iter()
        .map(|f| (f.clone(), unique(f) - main))
        .collect()
}

/// How a test function's process ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// Ran to the end (`WINETEST done`, exit status 0 or 1).
    Finished,
    /// Killed by this signal (a crash, an abort).
    Crashed(i32),
    /// Still running after this long; killed.
    TimedOut(Duration),
    /// Exited without finishing, or with another status (`None`: no status).
    Exited(Option<i32>),
}

impl Outcome {
    /// The expectations keyword of a function that did not finish.
    pub fn keyword(&self) -> Option<&'static str> {
        match self {
            Outcome::Finished => None,
            Outcome::Crashed(_) => Some("crash"),
            Outcome::TimedOut(_) => Some("timeout"),
            Outcome::Exited(_) => Some("exit"),
        }
    }

    /// For people: `ok`, `crashed with signal 11 (SIGSEGV)`, ...
    pub fn describe(&self) -> String {
        match self {
            Outcome::Finished => "ok".to_string(),
            Outcome::Crashed(signal) => {
                format!("crashed with signal {signal}{}", signal_name(*signal))
            }
            Outcome::TimedOut(t) => format!("timed out after {} s", t.as_secs()),
            Outcome::Exited(Some(code)) => format!("exited with code {code} before finishing"),
            Outcome::Exited(None) => "exited without a status".to_string(),
        }
    }
}

/// ` (SIGSEGV)` and the like for the signals a test dies of; empty for others.
fn signal_name(signal: i32) -> &'static str {
    match signal {
        4 => " (SIGILL)",
        6 => " (SIGABRT)",
        7 => " (SIGBUS)",
        8 => " (SIGFPE)",
        9 => " (SIGKILL)",
        11 => " (SIGSEGV)",
        13 => " (SIGPIPE)",
        15 => " (SIGTERM)",
        _ => "",
    }
}

/// A check site that failed or skipped: file, line, kind.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Site {
    pub file: String,
    pub line: u32,
    pub kind: &'static str,
}

/// What one site did in one run: how often, and its first message.
#[derive(Clone, Debug, Default)]
pub struct SiteRecord {
    pub count: usize,
    pub first_message: String,
}

/// One test function's run: its checks as `WINETEST` lines said, and how it ended.
#[derive(Clone, Debug)]
pub struct FunctionRun {
    pub name: String,
    pub outcome: Outcome,
    pub passed: usize,
    pub failed: usize,
    pub skipped: usize,
    pub sites: BTreeMap<Site, SiteRecord>,
    pub stderr_tail: String,
}

/// Counts a process's `WINETEST` lines; returns the run (outcome still to set) and whether
/// the `done` line came.
pub fn parse_output(name: &str, stdout: &str) -> (FunctionRun, bool) {
    let mut run = FunctionRun {
        name: name.to_string(),
        outcome: Outcome::Exited(None),
        passed: 0,
        failed: 0,
        skipped: 0,
        sites: BTreeMap::new(),
        stderr_tail: String::new(),
    };
    let mut done = false;
    for line in stdout.lines() {
        let Some(rest) = line.strip_prefix("WINETEST ") else {
            continue;
        };
        let mut fields = rest.splitn(4, ' ');
        let (kind, _function, site) = (fields.next(), fields.next(), fields.next());
        let message = fields.next().unwrap_or("");
        let kind = match kind {
            Some("ok") => {
                run.passed += 1;
                continue;
            }
            Some("done") => {
                done = true;
                continue;
            }
            Some("fail") => {
                run.failed += 1;
                "fail"
            }
            Some("skip") => {
                run.skipped += 1;
                "skip"
            }
            _ => continue,
        };
        let (file, line) = site.and_then(|s| s.rsplit_once(':')).unwrap_or(("?", "0"));
        let site = Site {
            file: file.to_string(),
            line: line.parse().unwrap_or(0),
            kind,
        };
        let record = run.sites.entry(site).or_default();
        if record.count == 0 {
            record.first_message = message.to_string();
        }
        record.count += 1;
    }
    (run, done)
}

/// Runs `exe --run NAME OFFSET` with a timeout; stdout and stderr go to `logs/NAME.*`.
pub fn run_one(exe: &Path, name: &str, offset: i64, timeout: Duration, logs: &Path) -> FunctionRun {
    let out_path = logs.join(format!("{name}.out"));
    let err_path = logs.join(format!("{name}.err"));
    let create =
        |p: &Path| std::fs::File::create(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    // The library next to the test executable, even where cargo's LD_LIBRARY_PATH names a
    // folder with another build of it (LD_LIBRARY_PATH outranks the executable's RUNPATH).
    let mut child = Command::new(exe)
        .env("LD_LIBRARY_PATH", libd3d9_dir())
        .arg("--run")
        .arg(name)
        .arg(offset.to_string())
        .stdin(Stdio::null())
        .stdout(create(&out_path))
        .stderr(create(&err_path))
        .spawn()
        .unwrap_or_else(|e| panic!("{}: {e}", exe.display()));
    let start = Instant::now();
    let status = loop {
        match child.try_wait().expect("wait for test process") {
            Some(status) => break Some(status),
            None if start.elapsed() > timeout => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            None => std::thread::sleep(Duration::from_millis(10)),
        }
    };
    let read =
        |p: &Path| String::from_utf8_lossy(&std::fs::read(p).unwrap_or_default()).into_owned();
    let (mut run, done) = parse_output(name, &read(&out_path));
    run.outcome = match status {
        None => Outcome::TimedOut(timeout),
        Some(s) => match (s.signal(), s.code()) {
            (Some(signal), _) => Outcome::Crashed(signal),
            (None, Some(0 | 1)) if done => Outcome::Finished,
            (None, code) => Outcome::Exited(code),
        },
    };
    let stderr = read(&err_path);
    let tail: Vec<&str> = stderr.lines().rev().take(5).collect();
    run.stderr_tail = tail.into_iter().rev().collect::<Vec<_>>().join("\n");
    run
}

/// Runs each function in its own process, `jobs` at a time; results in `functions`' order.
pub fn run_all(
    exe: &Path,
    functions: &[(String, i64)],
    timeout: Duration,
    jobs: usize,
    logs: &Path,
) -> Vec<FunctionRun> {
    // Each function's logs are rewritten; others are kept (runs of a few functions, as
    // D3D9_WINE_ONLY makes, leave the rest of a full run's logs in place).
    std::fs::create_dir_all(logs).expect("logs folder");
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<FunctionRun>>> = Mutex::new(vec![None; functions.len()]);
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some((name, offset)) = functions.get(i) else {
                    break;
                };
                let run = run_one(exe, name, *offset, timeout, logs);
                results.lock().expect("results")[i] = Some(run);
            });
        }
    });
    results
        .into_inner()
        .expect("results")
        .into_iter()
        .map(|r| r.expect("every function ran"))
        .collect()
}

/// Builds `sources` into `build/name` and runs the functions `START_TEST(start_test)` calls
/// (only those in `only` when given), asserting it calls `expected` of them.
pub fn run_suite(
    sources: &[PathBuf],
    start_test: &str,
    expected: usize,
    d3d9_dir: Option<&Path>,
    only: Option<&[String]>,
    timeout: Duration,
    build: &Path,
) -> Vec<FunctionRun> {
    std::fs::create_dir_all(build).expect("build folder");
    let exe = build.join(start_test);
    compile(sources, &exe, d3d9_dir);
    let source = std::fs::read_to_string(&sources[0]).expect("test source");
    let mut functions = test_functions(&source, start_test);
    assert_eq!(
        functions.len(),
        expected,
        "functions START_TEST({start_test}) calls: {functions:?}"
    );
    if let Some(only) = only {
        for f in only {
            assert!(
                functions.contains(f),
                "D3D9_WINE_ONLY: {start_test} has no test function {f}"
            );
        }
        functions.retain(|f| only.contains(f));
    }
    let functions = offsets_from_main(&exe, &functions);
    let jobs = std::thread::available_parallelism().map_or(2, |n| n.get());
    let jobs = env_number("D3D9_WINE_JOBS", jobs as u64) as usize;
    run_all(&exe, &functions, timeout, jobs, &build.join("logs"))
}

/// Per-function lines and the totals line.
pub fn report(label: &str, runs: &[FunctionRun], elapsed: Duration) -> String {
    let mut text = String::new();
    for r in runs {
        let _ = writeln!(
            text,
            "{label}: {}: {} passed, {} failed, {} skipped; {}",
            r.name,
            r.passed,
            r.failed,
            r.skipped,
            r.outcome.describe()
        );
        if r.outcome != Outcome::Finished && !r.stderr_tail.is_empty() {
            for line in r.stderr_tail.lines() {
                let _ = writeln!(text, "{label}: {}:   stderr: {line}", r.name);
            }
        }
    }
    let count = |f: &dyn Fn(&FunctionRun) -> bool| runs.iter().filter(|r| f(r)).count();
    let sum = |f: &dyn Fn(&FunctionRun) -> usize| runs.iter().map(f).sum::<usize>();
    let (passed, failed, skipped) = (sum(&|r| r.passed), sum(&|r| r.failed), sum(&|r| r.skipped));
    let _ = writeln!(
        text,
        "{label}: totals: {} functions, {} checks executed, {passed} passed, {failed} failed, {skipped} skips, {} functions pass every check, {} crashed, {} hung, {} exited early ({:.1} s)",
        runs.len(),
        passed + failed,
        count(&|r| r.outcome == Outcome::Finished && r.failed == 0 && r.skipped == 0),
        count(&|r| matches!(r.outcome, Outcome::Crashed(_))),
        count(&|r| matches!(r.outcome, Outcome::TimedOut(_))),
        count(&|r| matches!(r.outcome, Outcome::Exited(_))),
        elapsed.as_secs_f64()
    );
    text
}

/// Every failure and skip message of `runs`, for runs of a few functions.
pub fn failure_messages(label: &str, runs: &[FunctionRun]) -> String {
    let mut text = String::new();
    for r in runs {
        for (site, record) in &r.sites {
            let _ = writeln!(
                text,
                "{label}: {} {}:{} {} x{}: {}",
                r.name, site.file, site.line, site.kind, record.count, record.first_message
            );
        }
    }
    text
}
