//! Flow control: balanced blocks, subroutines and labels, `break` and `aL` scope, operand
//! files of the flow instructions, and nesting limits.
//!
//! Sources: the SDK's "Flow Control Nesting Limits" pages (vs_2_0: loop/rep nesting 1, call
//! nesting 1, static flow count 16; vs_2_x / ps_2_x: loop/rep and call nesting up to
//! `StaticFlowControlDepth`, dynamic nesting up to `DynamicFlowControlDepth`, `if bool`
//! nesting 16; vs_3_0 / ps_3_0: static 24, dynamic 24, loop/rep 4, call 4), the instruction
//! pages of `if`, `loop`, `rep`, `call`, `callnz`, `label`, `ret`, `break*`, and
//! `d3d9-vertex-model.md` §1 (`aL` belongs to a `loop`).
//!
//! Choices where the SDK is silent:
//! - A program is the main function, optionally closed by `ret`, followed by subroutines,
//!   each `label l#` … `ret`. An executable instruction between a `ret` and the next `label`
//!   is refused; a `ret` inside an open block is refused (fxc never emits either).
//! - `aL` may be read inside a `loop` of the same function, or anywhere in a subroutine (it
//!   reads the caller's loop counter, as DXVK and Wine implement it).
//! - Call nesting is the longest chain of calls from the main function; recursion is refused.

use super::registers::operand;
use super::{Ctx, InvalidShader, Site};
use crate::bytecode::{Opcode, RegisterFile, Stage};
use crate::check::CheckError;
use std::collections::HashMap;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Block {
    /// `if b#` (static) or `if p0` / `if_cmp` (dynamic), and whether `else` was seen.
    If {
        dynamic: bool,
        has_else: bool,
    },
    Loop,
    Rep,
}

struct Limits {
    static_if: u32,
    dynamic: u32,
    loops: u32,
    calls: u32,
    static_count: Option<u32>,
}

fn limits(ctx: &Ctx<'_>) -> Limits {
    let v = ctx.version;
    let (static_depth, dynamic_depth) = match v.stage {
        Stage::Vertex => (
            ctx.caps.vs_static_flow_control_depth,
            ctx.caps.vs_dynamic_flow_control_depth,
        ),
        Stage::Pixel => (
            ctx.caps.ps_static_flow_control_depth,
            ctx.caps.ps_dynamic_flow_control_depth,
        ),
    };
    match (v.major, v.minor) {
        (2, 0) => Limits {
            static_if: 16,
            dynamic: 0,
            loops: 1,
            calls: 1,
            static_count: Some(16),
        },
        // vs_2_sw and ps_2_sw have vs_2_x's / ps_2_x's nesting, and no limit on the number of
        // flow-control instructions (nor has 2_x: only vs_2_0 counts them).
        (2, 1) | (2, 0xFF) => Limits {
            static_if: 16,
            dynamic: dynamic_depth.min(24),
            loops: static_depth.min(4),
            calls: static_depth.min(4),
            static_count: None,
        },
        _ => Limits {
            static_if: 24,
            dynamic: 24,
            loops: 4,
            calls: 4,
            static_count: None,
        },
    }
}

struct Function {
    label: Option<u32>,
    calls: Vec<(u32, Site)>,
}

/// Every flow-control rule over the whole program.
pub(super) fn check(ctx: &Ctx<'_>) -> Result<(), CheckError> {
    let v = ctx.version;
    let lim = limits(ctx);
    let mut stack: Vec<(Block, Site)> = Vec::new();
    let mut functions = vec![Function {
        label: None,
        calls: Vec::new(),
    }];
    let mut in_function = true;
    let mut static_count = 0u32;
    let nest = |stack: &[(Block, Site)], f: &dyn Fn(&Block) -> bool| -> u32 {
        stack.iter().filter(|(b, _)| f(b)).count() as u32
    };

    for (index, inst) in ctx.program.instructions.iter().enumerate() {
        let site = Site::of(index, inst);
        let op = inst.opcode;
        let src_file = |i: usize| inst.src.get(i).map(|s| s.reg.file);
        let scope = |labelled: bool| {
            if labelled {
                "subroutine"
            } else {
                "main program"
            }
        };
        let current_is_sub = functions.last().is_some_and(|f| f.label.is_some());

        if op == Opcode::Label {
            if let Some(&(_, open)) = stack.last() {
                return Err(unclosed(ctx, open, scope(current_is_sub)));
            }
            let Some(src) = inst
                .src
                .first()
                .filter(|s| s.reg.file == RegisterFile::Label)
            else {
                return Err(label_operand(inst, site));
            };
            let label = src.reg.index;
            if functions.iter().any(|f| f.label == Some(label)) {
                return Err(InvalidShader::LabelDefinedTwice { site, label }.into());
            }
            functions.push(Function {
                label: Some(label),
                calls: Vec::new(),
            });
            in_function = true;
            continue;
        }
        if !super::is_executable(op) {
            continue;
        }
        if !in_function {
            return Err(InvalidShader::CodeAfterReturn { site }.into());
        }

        // aL is read only inside a loop of this function, or in a subroutine.
        let in_loop = stack.iter().any(|(b, _)| *b == Block::Loop);
        let reads_al = inst.src.iter().enumerate().any(|(i, s)| {
            let own_operand = op == Opcode::Loop && i == 0;
            (!own_operand && s.reg.file == RegisterFile::Loop)
                || s.reg.relative.is_some_and(|r| r.file == RegisterFile::Loop)
        }) || inst
            .dst
            .is_some_and(|d| d.reg.relative.is_some_and(|r| r.file == RegisterFile::Loop));
        if reads_al && !in_loop && !current_is_sub {
            return Err(InvalidShader::OutsideBlock {
                site,
                what: "aL",
                needed: "loop",
            }
            .into());
        }

        match op {
            Opcode::If | Opcode::Ifc => {
                let dynamic = match op {
                    Opcode::Ifc => true,
                    _ => match src_file(0) {
                        Some(RegisterFile::ConstBool) => false,
                        // p0 exists from 2_x on; the register rules refuse it before.
                        Some(RegisterFile::Predicate) => true,
                        _ => return Err(first_operand(inst, site, "b# (or p0 in 2_x and 3_0)")),
                    },
                };
                if !dynamic {
                    static_count += 1;
                }
                stack.push((
                    Block::If {
                        dynamic,
                        has_else: false,
                    },
                    site,
                ));
                let (kind, depth, limit) = if dynamic {
                    (
                        "dynamic if",
                        nest(&stack, &|b| matches!(b, Block::If { dynamic: true, .. })),
                        lim.dynamic,
                    )
                } else {
                    (
                        "static if",
                        nest(&stack, &|b| matches!(b, Block::If { dynamic: false, .. })),
                        lim.static_if,
                    )
                };
                too_deep(ctx, site, kind, depth, limit)?;
            }
            Opcode::Else => match stack.last_mut() {
                Some((
                    Block::If {
                        has_else: has_else @ false,
                        dynamic,
                    },
                    _,
                )) => {
                    *has_else = true;
                    if !*dynamic {
                        static_count += 1;
                    }
                }
                _ => return Err(unmatched(site, op, "if")),
            },
            Opcode::EndIf => match stack.last() {
                Some((Block::If { .. }, _)) => {
                    stack.pop();
                }
                _ => return Err(unmatched(site, op, "if")),
            },
            Opcode::Loop | Opcode::Rep => {
                let ok = if op == Opcode::Loop {
                    src_file(0) == Some(RegisterFile::Loop)
                        && src_file(1) == Some(RegisterFile::ConstInt)
                } else {
                    src_file(0) == Some(RegisterFile::ConstInt)
                };
                if !ok {
                    let expected = if op == Opcode::Loop { "aL, i#" } else { "i#" };
                    return Err(first_operand(inst, site, expected));
                }
                static_count += 1;
                stack.push((
                    if op == Opcode::Loop {
                        Block::Loop
                    } else {
                        Block::Rep
                    },
                    site,
                ));
                let depth = nest(&stack, &|b| matches!(b, Block::Loop | Block::Rep));
                too_deep(ctx, site, "loop/rep", depth, lim.loops)?;
            }
            Opcode::EndLoop | Opcode::EndRep => {
                let want = if op == Opcode::EndLoop {
                    Block::Loop
                } else {
                    Block::Rep
                };
                match stack.last() {
                    Some((b, _)) if *b == want => {
                        stack.pop();
                    }
                    _ => {
                        let expected = if want == Block::Loop { "loop" } else { "rep" };
                        return Err(unmatched(site, op, expected));
                    }
                }
            }
            Opcode::Break | Opcode::Breakc | Opcode::Breakp => {
                if !stack
                    .iter()
                    .any(|(b, _)| matches!(b, Block::Loop | Block::Rep))
                {
                    return Err(InvalidShader::OutsideBlock {
                        site,
                        what: "break",
                        needed: "loop or rep",
                    }
                    .into());
                }
                if op == Opcode::Breakp && src_file(0) != Some(RegisterFile::Predicate) {
                    return Err(first_operand(inst, site, "p0"));
                }
            }
            Opcode::Call | Opcode::CallNz => {
                let Some(target) = inst
                    .src
                    .first()
                    .filter(|s| s.reg.file == RegisterFile::Label)
                else {
                    return Err(label_operand(inst, site));
                };
                if op == Opcode::CallNz {
                    match src_file(1) {
                        Some(RegisterFile::ConstBool) => {}
                        Some(RegisterFile::Predicate) => {}
                        _ => {
                            let reg = inst.src.get(1).map(|s| s.reg).unwrap_or(target.reg);
                            return Err(operand(
                                site,
                                "condition",
                                "b# (or p0 in 2_x and 3_0)",
                                reg,
                            ));
                        }
                    }
                }
                static_count += 1;
                if let Some(f) = functions.last_mut() {
                    f.calls.push((target.reg.index, site));
                }
            }
            Opcode::Ret => {
                if let Some(&(_, open)) = stack.last() {
                    return Err(unclosed(ctx, open, scope(current_is_sub)));
                }
                in_function = false;
            }
            Opcode::Setp => {
                if let Some(dst) = inst.dst.filter(|d| d.reg.file != RegisterFile::Predicate) {
                    return Err(operand(site, "destination", "p0", dst.reg));
                }
            }
            _ => {}
        }
        if let Some(limit) = lim.static_count {
            if static_count > limit {
                return Err(InvalidShader::NestingTooDeep {
                    site,
                    kind: "static flow instruction count",
                    depth: static_count,
                    limit,
                    version: v,
                }
                .into());
            }
        }
    }
    if let Some(&(_, open)) = stack.last() {
        let labelled = functions.last().is_some_and(|f| f.label.is_some());
        return Err(unclosed(
            ctx,
            open,
            if labelled {
                "subroutine"
            } else {
                "main program"
            },
        ));
    }
    check_calls(ctx, &functions, lim.calls)
}

/// Every call names a defined label; no recursion; call chains within the nesting limit.
fn check_calls(ctx: &Ctx<'_>, functions: &[Function], limit: u32) -> Result<(), CheckError> {
    let by_label: HashMap<u32, usize> = functions
        .iter()
        .enumerate()
        .filter_map(|(i, f)| f.label.map(|l| (l, i)))
        .collect();
    for f in functions {
        for &(label, site) in &f.calls {
            if !by_label.contains_key(&label) {
                return Err(InvalidShader::UndefinedLabel { site, label }.into());
            }
        }
    }
    // Depth-first walk from main; `path` holds the functions on the current chain.
    fn depth(
        fi: usize,
        functions: &[Function],
        by_label: &HashMap<u32, usize>,
        path: &mut Vec<usize>,
        memo: &mut HashMap<usize, (u32, Site)>,
    ) -> Result<Option<(u32, Site)>, CheckError> {
        if let Some(&d) = memo.get(&fi) {
            return Ok(Some(d));
        }
        path.push(fi);
        let mut best: Option<(u32, Site)> = None;
        for &(label, site) in &functions[fi].calls {
            let Some(&callee) = by_label.get(&label) else {
                continue;
            };
            if path.contains(&callee) {
                return Err(InvalidShader::Recursion { site, label }.into());
            }
            let below = depth(callee, functions, by_label, path, memo)?;
            let d = 1 + below.map_or(0, |b| b.0);
            if best.is_none_or(|b| d > b.0) {
                // Report the deepest call of the chain.
                best = Some((d, below.map_or(site, |b| b.1)));
            }
        }
        path.pop();
        if let Some(b) = best {
            memo.insert(fi, b);
        }
        Ok(best)
    }
    let mut memo = HashMap::new();
    for start in 0..functions.len() {
        let mut path = Vec::new();
        let Some((d, site)) = depth(start, functions, &by_label, &mut path, &mut memo)? else {
            continue;
        };
        // Only chains from main count against the nesting limit; subroutines never called
        // still must not recurse (checked by the walk).
        if start == 0 {
            too_deep(ctx, site, "call", d, limit)?;
        }
    }
    Ok(())
}

fn too_deep(
    ctx: &Ctx<'_>,
    site: Site,
    kind: &'static str,
    depth: u32,
    limit: u32,
) -> Result<(), CheckError> {
    if depth > limit {
        return Err(InvalidShader::NestingTooDeep {
            site,
            kind,
            depth,
            limit,
            version: ctx.version,
        }
        .into());
    }
    Ok(())
}

fn unmatched(site: Site, opcode: Opcode, expected: &'static str) -> CheckError {
    InvalidShader::Unmatched {
        site,
        opcode,
        expected,
    }
    .into()
}

fn unclosed(_ctx: &Ctx<'_>, open: Site, scope: &'static str) -> CheckError {
    InvalidShader::Unclosed {
        site: open,
        opcode: open.opcode,
        scope,
    }
    .into()
}

fn first_operand(
    inst: &crate::bytecode::Instruction,
    site: Site,
    expected: &'static str,
) -> CheckError {
    match inst.src.first() {
        Some(s) => operand(site, "source", expected, s.reg),
        None => InvalidShader::NotInVersion {
            site,
            what: format!("{} without operands", inst.opcode),
            version: crate::bytecode::Version::new(Stage::Vertex, 0, 0),
        }
        .into(),
    }
}

fn label_operand(inst: &crate::bytecode::Instruction, site: Site) -> CheckError {
    first_operand(inst, site, "a label l#")
}
