//! Endgame databases, checked against the rules: each table consistent with its own moves, its
//! distances to conversion with their definition, a brute-force search agreeing on random
//! positions, known results as exact counts, and the files read back memory-mapped equal to the
//! tables built in memory. Every database here is built by the test itself, in memory or in a
//! temporary folder.

mod common;

use std::sync::OnceLock;

use common::temporary_dir;
use damiera_engine::egtb::{self, EgtbError, Material, Tablebase, Wdl};
use damiera_engine::{fen, Color, Position, Variant};

/// Each variant's databases of up to `pieces` pieces, built once for all the tests.
fn tablebase(variant: Variant, pieces: u32) -> &'static Tablebase {
    static BUILT: OnceLock<Vec<(Variant, u32, Tablebase)>> = OnceLock::new();
    let built = BUILT.get_or_init(|| {
        [(Variant::Italian, 4), (Variant::Turkish, 3), (Variant::Triestina, 3)]
            .into_iter()
            .map(|(v, n)| (v, n, egtb::build(v, n, None, |_| {}).expect("a small build succeeds")))
            .collect()
    });
    let (_, n, tablebase) = built.iter().find(|(v, _, _)| *v == variant).expect("built");
    assert!(pieces <= *n);
    tablebase
}

/// The value of `position` by the database, which must hold it.
fn probe(tablebase: &Tablebase, position: &Position) -> Wdl {
    tablebase.probe(position).unwrap_or_else(|| panic!("{} is not in the database", position.to_fen()))
}

/// Win: some move to a loss for the opponent. Loss: every move to an opponent's win (or none).
/// Draw: some move to a draw and none to a loss. Positions the material decides are left out.
fn assert_consistent(tablebase: &Tablebase) {
    let mut checked = 0;
    for material in tablebase.materials() {
        for (position, value) in tablebase.positions(material) {
            if position.material_outcome().is_some() {
                continue;
            }
            let children: Vec<Wdl> =
                position.legal_moves().iter().map(|mv| probe(tablebase, &position.play_unchecked(mv))).collect();
            let ok = match value {
                Wdl::Win => children.contains(&Wdl::Loss),
                Wdl::Loss => children.iter().all(|&c| c == Wdl::Win),
                Wdl::Draw => children.contains(&Wdl::Draw) && !children.contains(&Wdl::Loss),
            };
            assert!(ok, "{} is a {value} with children {children:?}", position.to_fen());
            checked += 1;
        }
    }
    assert!(checked > 1000, "only {checked} positions checked");
}

#[test]
fn italian_tables_up_to_four_pieces_are_consistent_with_their_moves() {
    assert_consistent(tablebase(Variant::Italian, 4));
}

#[test]
fn turkish_tables_up_to_three_pieces_are_consistent_with_their_moves() {
    assert_consistent(tablebase(Variant::Turkish, 3));
}

#[test]
fn triestina_tables_up_to_three_pieces_are_consistent_with_their_moves() {
    assert_consistent(tablebase(Variant::Triestina, 3));
}

/// Distances to conversion follow their definition, on a fixed sample of the wins and losses of
/// each size: a win is one ply more than its nearest lost child, a loss one more than its
/// farthest won one, a move out of the balance being one ply; no move at all, none.
fn assert_distances_consistent(variant: Variant, max_pieces: u32, count: usize) {
    let tablebase = tablebase(variant, max_pieces);
    let mut checked = 0;
    for pieces in 2..=max_pieces {
        for (position, value) in sample(tablebase, pieces, count) {
            let distance = tablebase.distance(&position);
            if value == Wdl::Draw {
                assert_eq!(distance, None, "{}: a draw has no distance", position.to_fen());
                continue;
            }
            let distance = distance.unwrap_or_else(|| panic!("{}: no distance", position.to_fen()));
            if position.material_outcome().is_some() {
                assert_eq!(distance, 0, "{}", position.to_fen());
                continue;
            }
            let material = Material::of(&position);
            let children: Vec<(Wdl, u32)> = position
                .legal_moves()
                .iter()
                .map(|mv| {
                    let child = position.play_unchecked(mv);
                    let plies = if Material::of(&child) == material {
                        tablebase.distance(&child).map_or(0, |d| d + 1)
                    } else {
                        1
                    };
                    (probe(tablebase, &child), plies)
                })
                .collect();
            let expected = match value {
                Wdl::Win => children.iter().filter(|(v, _)| *v == Wdl::Loss).map(|&(_, p)| p).min(),
                _ => Some(children.iter().map(|&(_, p)| p).max().unwrap_or(0)),
            };
            assert_eq!(Some(distance), expected, "{variant} {}: a {value}, children {children:?}", position.to_fen());
            checked += 1;
        }
    }
    // Most small Turkish positions are draws: one in ten of the sample at least is enough.
    assert!(checked * 10 > count * (max_pieces as usize - 1), "{variant}: only {checked} wins and losses checked");
}

#[test]
fn distances_to_conversion_follow_their_definition() {
    assert_distances_consistent(Variant::Italian, 4, 4000);
    assert_distances_consistent(Variant::Turkish, 3, 4000);
    assert_distances_consistent(Variant::Triestina, 3, 4000);
}

#[test]
fn known_distances_to_conversion() {
    let tablebase = tablebase(Variant::Italian, 3);
    let at = |text: &str| tablebase.distance(&fen::parse(Variant::Italian, text).unwrap());
    // Two kings trap the lone one in nine plies, five moves of theirs; the loser to move
    // delays the end as long.
    assert_eq!(at("W:WK1,K10:BK28"), Some(9));
    assert_eq!(at("B:WK1,K10:BK28"), Some(8));
    // The lone king is taken at once; a side without a move has lost already.
    assert_eq!(at("W:WK22,K10:BK18"), Some(1));
    assert_eq!(at("B:W:BK1"), Some(0));
    assert_eq!(at("W:WK1,K2:BK10"), None); // a draw
}

/// What a search of `depth` plies over the rules alone proves: a win, a loss, or nothing.
fn prove(position: &Position, depth: u32) -> Option<Wdl> {
    if let Some(outcome) = position.material_outcome() {
        return Some(Wdl::of_outcome(outcome, position.turn()));
    }
    let moves = position.legal_moves();
    if moves.is_empty() {
        return Some(Wdl::Loss);
    }
    if depth == 0 {
        return None;
    }
    let mut every_move_loses = true;
    for mv in &moves {
        match prove(&position.play_unchecked(mv), depth - 1) {
            Some(Wdl::Loss) => return Some(Wdl::Win),
            Some(Wdl::Win) => {}
            _ => every_move_loses = false,
        }
    }
    every_move_loses.then_some(Wdl::Loss)
}

/// `count` positions of `pieces` pieces drawn from the tables by a fixed generator.
fn sample(tablebase: &Tablebase, pieces: u32, count: usize) -> Vec<(Position, Wdl)> {
    let all: Vec<(Position, Wdl)> = tablebase
        .materials()
        .into_iter()
        .filter(|m| m.pieces() == pieces)
        .flat_map(|m| tablebase.positions(m).collect::<Vec<_>>())
        .collect();
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    (0..count)
        .map(|_| {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            all[(state >> 33) as usize % all.len()]
        })
        .collect()
}

/// The brute-force search proves wins and losses; every one must be the database's value, and
/// it must prove a share of them (one in twenty at least) for the comparison to mean something.
fn assert_brute_force_agrees(variant: Variant, pieces: u32, depth: u32, count: usize) {
    let tablebase = tablebase(variant, pieces);
    let mut proven = 0;
    for (position, value) in sample(tablebase, pieces, count) {
        if let Some(found) = prove(&position, depth) {
            assert_eq!(found, value, "{variant} {}: search {found}, database {value}", position.to_fen());
            proven += 1;
        }
    }
    // Draws, most of the smallest sizes, cannot be proven by a depth-limited search.
    println!("{variant} {pieces} pieces, depth {depth}: {proven} of {count} proven");
    assert!(proven * 20 > count, "{variant}: the search proved only {proven} of {count}");
}

#[test]
fn a_brute_force_search_agrees_on_random_italian_positions() {
    assert_brute_force_agrees(Variant::Italian, 2, 6, 2000);
    assert_brute_force_agrees(Variant::Italian, 3, 5, 3000);
    assert_brute_force_agrees(Variant::Italian, 4, 3, 2000);
}

#[test]
fn a_brute_force_search_agrees_on_random_turkish_positions() {
    assert_brute_force_agrees(Variant::Turkish, 2, 4, 2000);
    assert_brute_force_agrees(Variant::Turkish, 3, 3, 3000);
}

#[test]
fn a_brute_force_search_agrees_on_random_triestina_positions() {
    assert_brute_force_agrees(Variant::Triestina, 2, 6, 2000);
    assert_brute_force_agrees(Variant::Triestina, 3, 4, 3000);
}

/// Wins, draws and losses of `material` with `turn` to move.
fn counts(tablebase: &Tablebase, material: &str, turn: Color) -> [u32; 3] {
    let material: Material = material.parse().expect("a balance");
    let mut counts = [0; 3];
    for (_, value) in tablebase.positions(material).filter(|(p, _)| p.turn() == turn) {
        counts[match value {
            Wdl::Win => 0,
            Wdl::Draw => 1,
            Wdl::Loss => 2,
        }] += 1;
    }
    counts
}

#[test]
fn italian_two_kings_beat_one_but_for_a_few_forced_exchanges() {
    let tablebase = tablebase(Variant::Italian, 3);
    // 496 pairs of squares for the two kings, 30 left for the lone one: 14880 a side to move.
    // With the two kings to move, they never lose and win all but 34 positions, where every
    // move lets the lone king take one of them (a king against a king is a draw).
    assert_eq!(counts(tablebase, "0201", Color::White), [14846, 34, 0]);
    assert_eq!(counts(tablebase, "0102", Color::Black), [14846, 34, 0]);
    assert_eq!(counts(tablebase, "0201", Color::Black), [412, 1450, 13018]);
    let won = fen::parse(Variant::Italian, "W:WK1,K10:BK28").unwrap();
    assert_eq!(tablebase.probe(&won), Some(Wdl::Win));
    assert_eq!(tablebase.probe(&won.with_turn(Color::Black)), Some(Wdl::Loss));
    // Kings on 1 and 2, the lone king on 10: each move of White's lets Black exchange.
    let drawn = fen::parse(Variant::Italian, "W:WK1,K2:BK10").unwrap();
    assert_eq!(tablebase.probe(&drawn), Some(Wdl::Draw));
}

#[test]
fn an_italian_king_never_loses_to_a_lone_man_that_cannot_take_it() {
    let tablebase = tablebase(Variant::Italian, 3);
    // A man cannot take a king (RULES.md 2.4): with the king to move it wins or draws (the man
    // promotes), and the man's side wins only by promoting into a king that traps the other.
    assert_eq!(counts(tablebase, "0110", Color::White), [525, 343, 0]);
    assert_eq!(counts(tablebase, "0110", Color::Black), [9, 479, 380]);
    assert_eq!(counts(tablebase, "1001", Color::Black), [525, 343, 0]);
}

#[test]
fn turkish_material_endings_are_the_rules() {
    let tablebase = tablebase(Variant::Turkish, 3);
    // A lone man against a king loses at once (RULES.md 3.9): 64 squares for the king, 56 for
    // the man (never on its promotion rank), less the 56 where they meet, both sides to move.
    assert_eq!(counts(tablebase, "0110", Color::White), [3528, 0, 0]);
    assert_eq!(counts(tablebase, "0110", Color::Black), [0, 0, 3528]);
    // One piece each of a kind is a draw (RULES.md 3.10).
    assert_eq!(counts(tablebase, "0101", Color::White), [0, 4032, 0]);
    assert_eq!(counts(tablebase, "1010", Color::Black), [0, 3088, 0]);
    // Two flying kings cannot force one: most positions are draws, the wins are captures and
    // forced exchanges, and the lone king to move wins none.
    assert_eq!(counts(tablebase, "0201", Color::White), [38228, 86764, 0]);
    assert_eq!(counts(tablebase, "0201", Color::Black), [10048, 114748, 196]);
}

#[test]
fn files_read_back_memory_mapped_probe_as_built() {
    let dir = temporary_dir("round-trip");
    let built = egtb::build(Variant::Turkish, 3, Some(&dir), |_| {}).unwrap();
    let opened = Tablebase::open(&dir, Variant::Turkish).unwrap();
    assert_eq!(opened.materials(), built.materials());
    assert_eq!(opened.data_bytes(), built.data_bytes());
    for material in built.materials() {
        let from_file: Vec<_> = opened.positions(material).collect();
        assert_eq!(from_file, built.positions(material).collect::<Vec<_>>(), "{material}");
        for (position, value) in from_file {
            assert_eq!(opened.probe(&position), Some(value));
        }
    }
    for (position, _) in sample(&built, 3, 2000) {
        assert_eq!(opened.distance(&position), built.distance(&position), "{}", position.to_fen());
    }
    assert!(opened.has_distances());
    // A second build finds every file complete and solves nothing.
    let mut skipped = 0;
    egtb::build(Variant::Turkish, 3, Some(&dir), |e| skipped += usize::from(e.skipped)).unwrap();
    assert_eq!(skipped, built.materials().len());
    // A balance without its distances (a folder built before them) reads without them, and the
    // next build solves it again.
    std::fs::remove_file(dir.join("turkish").join("0201.dtc")).unwrap();
    let older = Tablebase::open(&dir, Variant::Turkish).unwrap();
    assert!(!older.has_distances());
    let won = fen::parse(Variant::Turkish, "W:WKa1,Kc3:BKa5").unwrap();
    assert_eq!((older.probe(&won), older.distance(&won)), (built.probe(&won), None));
    let mut solved = Vec::new();
    egtb::build(Variant::Turkish, 3, Some(&dir), |e| {
        if !e.skipped {
            solved.push(e.material.to_string());
        }
    })
    .unwrap();
    assert_eq!(solved, ["0201"]);
    assert!(Tablebase::open(&dir, Variant::Turkish).unwrap().has_distances());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Flips a bit of the last byte of `file`, in the data its checksum covers.
fn damage(file: &std::path::Path) {
    let mut bytes = std::fs::read(file).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x40;
    std::fs::write(file, &bytes).unwrap();
}

/// Builds Italian up to two pieces in `dir`; returns the balances it found damaged and replaced.
fn rebuild_two_pieces(dir: &std::path::Path) -> Vec<String> {
    let mut replaced = Vec::new();
    egtb::build(Variant::Italian, 2, Some(dir), |e| {
        if e.replaced_corrupt {
            replaced.push(e.material.to_string());
        }
    })
    .unwrap();
    replaced
}

#[test]
fn a_damaged_file_is_a_clear_error_and_the_next_build_replaces_it() {
    let dir = temporary_dir("damaged");
    egtb::build(Variant::Italian, 2, Some(&dir), |_| {}).unwrap();
    let file = dir.join("italian").join("0101.wdl");
    damage(&file);
    let error = Tablebase::open(&dir, Variant::Italian).unwrap_err();
    assert!(matches!(error, EgtbError::Corrupt { .. }), "{error}");
    assert!(error.to_string().contains("0101.wdl") && error.to_string().contains("checksum"), "{error}");
    std::fs::write(&file, &std::fs::read(&file).unwrap()[..40]).unwrap();
    assert!(Tablebase::open(&dir, Variant::Italian).unwrap_err().to_string().contains("data bytes"));
    assert_eq!(rebuild_two_pieces(&dir), ["0101"]);
    assert!(Tablebase::open(&dir, Variant::Italian).is_ok());
    // Likewise a damaged file of distances.
    damage(&dir.join("italian").join("1010.dtc"));
    let error = Tablebase::open(&dir, Variant::Italian).unwrap_err();
    assert!(error.to_string().contains("1010.dtc") && error.to_string().contains("checksum"), "{error}");
    assert_eq!(rebuild_two_pieces(&dir), ["1010"]);
    assert!(Tablebase::open(&dir, Variant::Italian).unwrap().has_distances());
    // A folder with no databases is an empty set, not an error.
    assert_eq!(Tablebase::open(&dir.join("nothing"), Variant::Italian).unwrap().materials(), []);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn positions_with_more_pieces_than_the_tables_are_not_probed() {
    let tablebase = tablebase(Variant::Italian, 4);
    assert_eq!(tablebase.probe(&Position::start(Variant::Italian)), None);
    let five = fen::parse(Variant::Italian, "W:WK1,K2,K3:BK31,K32").unwrap();
    assert_eq!(tablebase.probe(&five), None);
    // A side without pieces has lost, whatever the tables hold.
    let empty = Tablebase::empty(Variant::Italian);
    assert_eq!(empty.probe(&fen::parse(Variant::Italian, "B:WK1,K2,K3,K4,K5:B").unwrap()), Some(Wdl::Loss));
}
