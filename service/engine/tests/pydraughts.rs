//! Differential test of Dama Italiana against pydraughts, an independent Python implementation.
//!
//! This side picks the positions (random games from the start, and random set-ups with kings,
//! where the capture-choice rules of RULES.md 2.8 matter most) and writes each with our legal moves
//! to a file; `tests/pydraughts/compare.py` lists pydraughts' moves for the same positions and
//! compares (its doc says how, and which known pydraughts fault it tolerates). pydraughts must be
//! installed for the Python this test runs: `$DAMIERA_PYTHON`, or `python3` by default. Set
//! `DAMIERA_SKIP_PYDRAUGHTS=1` to skip the test where it cannot be (CI installs it).

mod common;

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

use common::{add_random_games, add_random_setups, Distinct, Rng};
use damiera_engine::{Color, Move, Piece, PieceKind, Position, Square, Variant};

const FROM_GAMES: usize = 7_000;
const FROM_SETUPS: usize = 3_000;
const KING_TOURS: usize = 1_500;
const INSTALL: &str = "install it with `python3 -m pip install pydraughts==0.6.7` (or set DAMIERA_PYTHON \
                       to a Python that has it), or set DAMIERA_SKIP_PYDRAUGHTS=1 to skip this test";

/// A king with enemy pieces (men or kings) along two random capture tours of 2 to 4 jumps from its
/// square. Sequences of equal length that meet kings in a different order, where RULES.md 2.8.3
/// and 2.8.4 decide, come up here and hardly ever in random set-ups.
fn king_tour(rng: &mut Rng) -> Option<Position> {
    const DIAGONALS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
    let variant = Variant::Italian;
    let at_offset = |square: Square, (df, dr): (i32, i32), k: i32| {
        let (file, rank) = variant.coordinates(square);
        let (file, rank) = (file as i32 + k * df, rank as i32 + k * dr);
        (file >= 0 && rank >= 0).then(|| variant.square_at(file as u32, rank as u32)).flatten()
    };
    let squares: Vec<Square> = variant.board().collect();
    let start = squares[rng.below(squares.len())];
    let us = if rng.chance(50) { Color::White } else { Color::Black };
    let them = us.opposite();
    let mut landings = vec![start];
    let mut taken: Vec<Square> = Vec::new();
    for _ in 0..2 {
        let mut at = start;
        for _ in 0..2 + rng.below(3) {
            let first = rng.below(4);
            let jump = (0..4).map(|k| DIAGONALS[(first + k) % 4]).find_map(|d| {
                let jumped = at_offset(at, d, 1)?;
                let landing = at_offset(at, d, 2)?;
                let free = !landings.contains(&jumped) && !taken.contains(&jumped) && !taken.contains(&landing);
                free.then_some((jumped, landing))
            });
            let Some((jumped, landing)) = jump else { break };
            taken.push(jumped);
            landings.push(landing);
            at = landing;
        }
    }
    if taken.len() < 3 {
        return None;
    }
    let mut pieces = vec![(start, Piece { color: us, kind: PieceKind::King })];
    for square in taken {
        let king = rng.chance(50) || variant.promotion_row(them).contains(square);
        pieces.push((square, Piece { color: them, kind: if king { PieceKind::King } else { PieceKind::Man } }));
    }
    Some(Position::from_pieces(variant, us, pieces).expect("a king tour is a legal set-up"))
}

/// `start>end>captured>promotes`, squares by number, captured in ascending order.
fn write_move(mv: &Move) -> String {
    let name = |sq| Variant::Italian.square_name(sq);
    let mut captured: Vec<u32> = mv.captured().map(|sq| Variant::Italian.square_number(sq)).collect();
    captured.sort_unstable();
    let captured: Vec<String> = captured.iter().map(u32::to_string).collect();
    format!("{}>{}>{}>{}", name(mv.from()), name(mv.to()), captured.join(","), u8::from(mv.promotes()))
}

fn write_positions(positions: &[Position], path: &Path) {
    let mut text = String::new();
    for position in positions {
        let moves = position.legal_moves();
        for (i, mv) in moves.iter().enumerate() {
            assert!(
                !moves[..i].iter().any(|other| other.same_move(mv)),
                "{}: {} is listed twice",
                position.to_fen(),
                write_move(mv)
            );
        }
        let moves: Vec<String> = moves.iter().map(write_move).collect();
        writeln!(text, "{}\t{}", position.to_fen(), moves.join(" ")).unwrap();
    }
    std::fs::write(path, text).expect("write the positions file");
}

/// The number after `label: ` in the script's summary.
fn summary_number(stdout: &str, label: &str) -> Option<usize> {
    stdout.lines().find_map(|line| line.strip_prefix(label)?.strip_prefix(": ")?.trim().parse().ok())
}

#[test]
fn legal_moves_agree_with_pydraughts() {
    if std::env::var("DAMIERA_SKIP_PYDRAUGHTS").is_ok_and(|v| v == "1") {
        eprintln!("DAMIERA_SKIP_PYDRAUGHTS=1: pydraughts comparison skipped");
        return;
    }
    let started = Instant::now();
    let mut rng = Rng::new(0x00DA_31E2_1714_0001);
    let mut positions = Distinct::default();
    add_random_games(&mut positions, Variant::Italian, &mut rng, FROM_GAMES, 200);
    add_random_setups(&mut positions, Variant::Italian, &mut rng, FROM_SETUPS);
    let tours_from = positions.len();
    while positions.len() < tours_from + KING_TOURS {
        if let Some(position) = king_tour(&mut rng) {
            positions.add(position);
        }
    }
    // One file per process: several people may run the suite at once on one target directory.
    let file = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("pydraughts-italian-{}.tsv", std::process::id()));
    write_positions(&positions.positions, &file);

    let python = std::env::var("DAMIERA_PYTHON").unwrap_or_else(|_| "python3".to_string());
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/pydraughts/compare.py");
    let output = Command::new(&python)
        .arg(&script)
        .arg(&file)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {python}: {e}; it must have pydraughts: {INSTALL}"));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    if output.status.code() == Some(3) {
        panic!("{}\nOr set DAMIERA_SKIP_PYDRAUGHTS=1 to skip this test.", stderr.trim());
    }
    println!("{stdout}");
    eprintln!("{stderr}");
    println!("pydraughts: {} positions written, {:.2?} in all", positions.len(), started.elapsed());
    assert!(
        output.status.success(),
        "pydraughts disagrees ({}); see the MISMATCH lines above, positions in {}",
        output.status,
        file.display()
    );
    std::fs::remove_file(&file).ok();
    let compared = summary_number(&stdout, "positions compared").expect("the script prints a summary");
    assert_eq!(compared, positions.len(), "the script skipped positions");
    assert!(compared >= 10_000, "only {compared} positions compared");
}
