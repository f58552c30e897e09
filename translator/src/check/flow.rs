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
use crate::bytecode::{Instruction, Opcode, RegisterFile, Stage};
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
    let mut walk = Walk {
        ctx,
        lim: limits(ctx),
        stack: Vec::new(),
        functions: vec![Function {
            label: None,
            calls: Vec::new(),
        }],
        in_function: true,
        static_count: 0,
    };
    for (index, inst) in ctx.program.instructions.iter().enumerate() {
        walk.instruction(Site::of(index, inst), inst)?;
    }
    if let Some(&(_, open)) = walk.stack.last() {
        return Err(unclosed(ctx, open, walk.scope()));
    }
    check_calls(ctx, &walk.functions, walk.lim.calls)
}

/// The walk over the program in order: the open blocks, the functions so far, and the
/// static flow-control count.
struct Walk<'a> {
    ctx: &'a Ctx<'a>,
    lim: Limits,
    stack: Vec<(Block, Site)>,
    functions: Vec<Function>,
    /// Whether executable instructions may come (not between a `ret` and the next `label`).
    in_function: bool,
    static_count: u32,
}

impl Walk<'_> {
    /// One instruction: its function's boundaries, `aL`'s scope, its block rule, the count.
    fn instruction(&mut self, site: Site, inst: &Instruction) -> Result<(), CheckError> {
        let op = inst.opcode;
        if op == Opcode::Label {
            return self.label(site, inst);
        }
        if !super::is_executable(op) {
            return Ok(());
        }
        if !self.in_function {
            return Err(InvalidShader::CodeAfterReturn { site }.into());
        }
        self.check_al(site, inst)?;
        match op {
            Opcode::If | Opcode::Ifc => self.open_if(site, inst)?,
            Opcode::Else => self.else_branch(site, op)?,
            Opcode::EndIf => self.end_if(site, op)?,
            Opcode::Loop | Opcode::Rep => self.open_loop(site, inst)?,
            Opcode::EndLoop | Opcode::EndRep => self.end_loop(site, op)?,
            Opcode::Break | Opcode::Breakc | Opcode::Breakp => self.break_out(site, inst)?,
            Opcode::Call | Opcode::CallNz => self.call(site, inst)?,
            Opcode::Ret => self.ret()?,
            Opcode::Setp => setp(site, inst)?,
            _ => {}
        }
        self.check_static_count(site)
    }

    /// What the current function is, for messages.
    fn scope(&self) -> &'static str {
        if self.functions.last().is_some_and(|f| f.label.is_some()) {
            "subroutine"
        } else {
            "main program"
        }
    }

    fn nest(&self, f: impl Fn(&Block) -> bool) -> u32 {
        self.stack.iter().filter(|(b, _)| f(b)).count() as u32
    }

    /// `label l#`: no block open across it, each label defined once; a new function begins.
    fn label(&mut self, site: Site, inst: &Instruction) -> Result<(), CheckError> {
        if let Some(&(_, open)) = self.stack.last() {
            return Err(unclosed(self.ctx, open, self.scope()));
        }
        let Some(src) = inst
            .src
            .first()
            .filter(|s| s.reg.file == RegisterFile::Label)
        else {
            return Err(label_operand(inst, site));
        };
        let label = src.reg.index;
        if self.functions.iter().any(|f| f.label == Some(label)) {
            return Err(InvalidShader::LabelDefinedTwice { site, label }.into());
        }
        self.functions.push(Function {
            label: Some(label),
            calls: Vec::new(),
        });
        self.in_function = true;
        Ok(())
    }

    /// aL is read only inside a loop of this function, or in a subroutine.
    fn check_al(&self, site: Site, inst: &Instruction) -> Result<(), CheckError> {
        let op = inst.opcode;
        let in_loop = self.stack.iter().any(|(b, _)| *b == Block::Loop);
        let reads_al = inst.src.iter().enumerate().any(|(i, s)| {
            let own_operand = op == Opcode::Loop && i == 0;
            (!own_operand && s.reg.file == RegisterFile::Loop)
                || s.reg.relative.is_some_and(|r| r.file == RegisterFile::Loop)
        }) || inst
            .dst
            .is_some_and(|d| d.reg.relative.is_some_and(|r| r.file == RegisterFile::Loop));
        let in_sub = self.functions.last().is_some_and(|f| f.label.is_some());
        if reads_al && !in_loop && !in_sub {
            return Err(InvalidShader::OutsideBlock {
                site,
                what: "aL",
                needed: "loop",
            }
            .into());
        }
        Ok(())
    }

    /// `if b#` (static), `if p0` / `if_cmp` (dynamic), each within its nesting limit.
    fn open_if(&mut self, site: Site, inst: &Instruction) -> Result<(), CheckError> {
        let dynamic = match inst.opcode {
            Opcode::Ifc => true,
            _ => match src_file(inst, 0) {
                Some(RegisterFile::ConstBool) => false,
                // p0 exists from 2_x on; the register rules refuse it before.
                Some(RegisterFile::Predicate) => true,
                _ => return Err(first_operand(inst, site, "b# (or p0 in 2_x and 3_0)")),
            },
        };
        if !dynamic {
            self.static_count += 1;
        }
        self.stack.push((
            Block::If {
                dynamic,
                has_else: false,
            },
            site,
        ));
        let (kind, depth, limit) = if dynamic {
            (
                "dynamic if",
                self.nest(|b| matches!(b, Block::If { dynamic: true, .. })),
                self.lim.dynamic,
            )
        } else {
            (
                "static if",
                self.nest(|b| matches!(b, Block::If { dynamic: false, .. })),
                self.lim.static_if,
            )
        };
        too_deep(self.ctx, site, kind, depth, limit)
    }

    /// `else`: one per open `if`.
    fn else_branch(&mut self, site: Site, op: Opcode) -> Result<(), CheckError> {
        match self.stack.last_mut() {
            Some((
                Block::If {
                    has_else: has_else @ false,
                    dynamic,
                },
                _,
            )) => {
                *has_else = true;
                if !*dynamic {
                    self.static_count += 1;
                }
                Ok(())
            }
            _ => Err(unmatched(site, op, "if")),
        }
    }

    /// `endif` closes an `if`.
    fn end_if(&mut self, site: Site, op: Opcode) -> Result<(), CheckError> {
        match self.stack.last() {
            Some((Block::If { .. }, _)) => {
                self.stack.pop();
                Ok(())
            }
            _ => Err(unmatched(site, op, "if")),
        }
    }

    /// `loop aL, i#` and `rep i#`, within the loop nesting limit.
    fn open_loop(&mut self, site: Site, inst: &Instruction) -> Result<(), CheckError> {
        let is_loop = inst.opcode == Opcode::Loop;
        let ok = if is_loop {
            src_file(inst, 0) == Some(RegisterFile::Loop)
                && src_file(inst, 1) == Some(RegisterFile::ConstInt)
        } else {
            src_file(inst, 0) == Some(RegisterFile::ConstInt)
        };
        if !ok {
            let expected = if is_loop { "aL, i#" } else { "i#" };
            return Err(first_operand(inst, site, expected));
        }
        self.static_count += 1;
        self.stack
            .push((if is_loop { Block::Loop } else { Block::Rep }, site));
        let depth = self.nest(|b| matches!(b, Block::Loop | Block::Rep));
        too_deep(self.ctx, site, "loop/rep", depth, self.lim.loops)
    }

    /// `endloop` closes a `loop`, `endrep` a `rep`.
    fn end_loop(&mut self, site: Site, op: Opcode) -> Result<(), CheckError> {
        let want = if op == Opcode::EndLoop {
            Block::Loop
        } else {
            Block::Rep
        };
        match self.stack.last() {
            Some((b, _)) if *b == want => {
                self.stack.pop();
                Ok(())
            }
            _ => {
                let expected = if want == Block::Loop { "loop" } else { "rep" };
                Err(unmatched(site, op, expected))
            }
        }
    }

    /// `break`, `break_comp` and `breakp p0` inside a `loop` or `rep`.
    fn break_out(&self, site: Site, inst: &Instruction) -> Result<(), CheckError> {
        if !self
            .stack
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
        if inst.opcode == Opcode::Breakp && src_file(inst, 0) != Some(RegisterFile::Predicate) {
            return Err(first_operand(inst, site, "p0"));
        }
        Ok(())
    }

    /// `call l#` and `callnz l#, b#/p0`: recorded for the call-graph rules.
    fn call(&mut self, site: Site, inst: &Instruction) -> Result<(), CheckError> {
        let Some(target) = inst
            .src
            .first()
            .filter(|s| s.reg.file == RegisterFile::Label)
        else {
            return Err(label_operand(inst, site));
        };
        if inst.opcode == Opcode::CallNz {
            match src_file(inst, 1) {
                Some(RegisterFile::ConstBool) => {}
                Some(RegisterFile::Predicate) => {}
                _ => {
                    let reg = inst.src.get(1).map(|s| s.reg).unwrap_or(target.reg);
                    return Err(operand(site, "condition", "b# (or p0 in 2_x and 3_0)", reg));
                }
            }
        }
        self.static_count += 1;
        if let Some(f) = self.functions.last_mut() {
            f.calls.push((target.reg.index, site));
        }
        Ok(())
    }

    /// `ret` ends the function; no block may be open across it.
    fn ret(&mut self) -> Result<(), CheckError> {
        if let Some(&(_, open)) = self.stack.last() {
            return Err(unclosed(self.ctx, open, self.scope()));
        }
        self.in_function = false;
        Ok(())
    }

    /// vs_2_0's limit on the number of static flow-control instructions.
    fn check_static_count(&self, site: Site) -> Result<(), CheckError> {
        if let Some(limit) = self.lim.static_count {
            if self.static_count > limit {
                return Err(InvalidShader::NestingTooDeep {
                    site,
                    kind: "static flow instruction count",
                    depth: self.static_count,
                    limit,
                    version: self.ctx.version,
                }
                .into());
            }
        }
        Ok(())
    }
}

/// `setp` writes p0.
fn setp(site: Site, inst: &Instruction) -> Result<(), CheckError> {
    if let Some(dst) = inst.dst.filter(|d| d.reg.file != RegisterFile::Predicate) {
        return Err(operand(site, "destination", "p0", dst.reg));
    }
    Ok(())
}

/// The register file of source operand `i`.
fn src_file(inst: &Instruction, i: usize) -> Option<RegisterFile> {
    inst.src.get(i).map(|s| s.reg.file)
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

fn first_operand(inst: &Instruction, site: Site, expected: &'static str) -> CheckError {
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

fn label_operand(inst: &Instruction, site: Site) -> CheckError {
    first_operand(inst, site, "a label l#")
}
