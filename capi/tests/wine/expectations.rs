//! The expectations list of a Wine test: what a run found that does not pass, as lines,
//! compared with the file in both directions and rewritten from a run on request.

use std::collections::BTreeSet;

use super::runner::FunctionRun;

/// The comment a blessed file starts with; `test` names the Wine test file and the cargo test.
fn header(test: &str) -> String {
    format!(
        "\
# Wine {test} checks that do not pass on libd3d9, and functions that do not finish:
# FUNCTION FILE:LINE fail|skip COUNT [TAG] # reason   (COUNT: how often that site failed/skipped)
# FUNCTION crash|timeout|exit [TAG] # reason
# [TAG] limits a line to runs on that wgpu backend (vulkan, gl). The cargo test fails when a
# run and this list disagree either way; D3D9_WINE_BLESS=1 rewrites it, keeping the reasons.
"
    )
}

/// One expectations line's content as a run produces it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Finding {
    /// Position of the function in the run, then the site line (0 for the function itself).
    pub order: (usize, u32),
    /// `FUNCTION FILE:LINE KIND COUNT` or `FUNCTION crash|timeout|exit`.
    pub key: String,
    /// The key without its count: a line whose count changed keeps its reason.
    pub loose: String,
    /// For a new line's placeholder reason.
    pub hint: String,
}

/// A run's findings: each function that did not finish, each site that failed or skipped.
pub fn findings(runs: &[FunctionRun]) -> Vec<Finding> {
    let mut out = Vec::new();
    for (i, run) in runs.iter().enumerate() {
        if let Some(keyword) = run.outcome.keyword() {
            let key = format!("{} {keyword}", run.name);
            let hint = run.outcome.describe();
            out.push(Finding {
                order: (i, 0),
                loose: key.clone(),
                key,
                hint,
            });
        }
        for (site, record) in &run.sites {
            let loose = format!("{} {}:{} {}", run.name, site.file, site.line, site.kind);
            out.push(Finding {
                order: (i, site.line),
                key: format!("{loose} {}", record.count),
                loose,
                hint: record.first_message.chars().take(100).collect(),
            });
        }
    }
    out.sort();
    out
}

/// One line of the expectations file.
#[derive(Clone, Debug)]
pub struct Expected {
    /// As `Finding::key`.
    pub key: String,
    /// As `Finding::loose`.
    pub loose: String,
    /// The `[TAG]`: the line applies only on that wgpu backend.
    pub tag: Option<String>,
    /// After the `#`.
    pub reason: String,
    /// The whole line, trimmed.
    pub text: String,
}

/// What a line of the expectations file must look like.
const LINE_FORMAT: &str =
    "`FUNCTION FILE:LINE fail|skip COUNT [TAG] # reason` or `FUNCTION crash|timeout|exit [TAG] # reason`";

/// Parses an expectations file (`file` names it in errors): the lines that apply, and aside
/// those with a `[TAG]` other than `backend`.
pub fn parse_expectations(
    file: &str,
    text: &str,
    backend: Option<&str>,
) -> (Vec<Expected>, Vec<Expected>) {
    let (mut applies, mut other) = (Vec::new(), Vec::new());
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (entry, reason) = line.split_once('#').unwrap_or((line, ""));
        let mut tokens: Vec<&str> = entry.split_whitespace().collect();
        let tag = match tokens.last() {
            Some(t) if t.starts_with('[') && t.ends_with(']') => {
                let tag = t[1..t.len() - 1].to_string();
                tokens.pop();
                Some(tag)
            }
            _ => None,
        };
        let is_site = |site: &str, count: &str| site.contains(':') && count.parse::<u32>().is_ok();
        let loose = match tokens[..] {
            [_, "crash" | "timeout" | "exit"] => tokens.join(" "),
            [_, site, "fail" | "skip", count] if is_site(site, count) => tokens[..3].join(" "),
            _ => panic!("{file}:{}: want {LINE_FORMAT}: {raw}", n + 1),
        };
        let key = tokens.join(" ");
        let listed = applies
            .iter()
            .chain(&other)
            .any(|e: &Expected| e.key == key && e.tag == tag);
        assert!(!listed, "{file}:{}: listed twice: {raw}", n + 1);
        let expected = Expected {
            key,
            loose,
            tag: tag.clone(),
            reason: reason.trim().to_string(),
            text: line.to_string(),
        };
        match tag {
            Some(t) if Some(t.as_str()) != backend => other.push(expected),
            _ => applies.push(expected),
        }
    }
    (applies, other)
}

/// The lines a run adds to and removes from the expectations (empty both: they agree).
pub fn diff(found: &[Finding], expected: &[Expected]) -> (Vec<String>, Vec<String>) {
    let found_keys: BTreeSet<&str> = found.iter().map(|f| f.key.as_str()).collect();
    let expected_keys: BTreeSet<&str> = expected.iter().map(|e| e.key.as_str()).collect();
    let add = found
        .iter()
        .filter(|f| !expected_keys.contains(f.key.as_str()))
        .map(|f| new_line(f, expected))
        .collect();
    let remove = expected
        .iter()
        .filter(|e| !found_keys.contains(e.key.as_str()))
        .map(|e| e.text.clone())
        .collect();
    (add, remove)
}

/// The expectations line for a finding: the listed reason (and tag) of the same site or
/// function when there is one, else `not yet triaged` with the first message.
pub fn new_line(finding: &Finding, expected: &[Expected]) -> String {
    let same = |e: &&Expected| e.key == finding.key;
    let similar = |e: &&Expected| e.loose == finding.loose;
    match expected
        .iter()
        .find(same)
        .or_else(|| expected.iter().find(similar))
    {
        Some(e) => {
            let tag = e
                .tag
                .as_ref()
                .map(|t| format!(" [{t}]"))
                .unwrap_or_default();
            format!("{}{tag} # {}", finding.key, e.reason)
        }
        None => format!("{} # not yet triaged: {}", finding.key, finding.hint),
    }
}

/// The whole file after a bless: this run's findings, plus lines tagged for other backends,
/// in run order (`order`: the functions as run), under a header naming `test`.
pub fn blessed(
    test: &str,
    found: &[Finding],
    applies: &[Expected],
    other: &[Expected],
    order: &[String],
) -> String {
    let position = |key: &str| {
        let function = key.split(' ').next().unwrap_or("");
        let line = key
            .split(' ')
            .nth(1)
            .and_then(|s| s.rsplit_once(':'))
            .and_then(|(_, l)| l.parse().ok());
        (
            order
                .iter()
                .position(|f| f == function)
                .unwrap_or(usize::MAX),
            line.unwrap_or(0u32),
        )
    };
    let mut lines: Vec<((usize, u32), String)> = found
        .iter()
        .map(|f| (f.order, new_line(f, applies)))
        .collect();
    lines.extend(other.iter().map(|e| (position(&e.key), e.text.clone())));
    lines.sort();
    let mut text = header(test);
    for (_, line) in lines {
        text.push_str(&line);
        text.push('\n');
    }
    text
}
