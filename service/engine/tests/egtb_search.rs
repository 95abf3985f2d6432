//! The search with endgame databases: a position they hold scores their exact value and is not
//! searched below, a root they hold keeps its value move after move, and the engine converts
//! database wins. The databases (Dama Italiana, up to four pieces) are built by the test.

mod common;

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};

use damiera_engine::egtb::{self, Material, Tablebase, Wdl};
use damiera_engine::search::{search_with, Limits, Options, Score, SearchResult, TranspositionTable};
use damiera_engine::{fen, Color, Game, Outcome, Position, Variant, WinReason};

/// Dama Italiana's databases of up to four pieces, built once for all the tests (a second or two).
fn tablebase() -> Arc<Tablebase> {
    static BUILT: OnceLock<Arc<Tablebase>> = OnceLock::new();
    Arc::clone(BUILT.get_or_init(|| Arc::new(egtb::build(Variant::Italian, 4, None, |_| {}).expect("a small build"))))
}

fn with_databases() -> Options {
    Options { tablebase: Some(tablebase()), ..Options::default() }
}

fn search(position: &Position, history: &[Position], limits: &Limits, options: &Options) -> SearchResult {
    let table = TranspositionTable::new(4);
    search_with(position, history, limits, options, &table, &AtomicBool::new(false), |_| {})
}

fn italian(text: &str) -> Position {
    fen::parse(Variant::Italian, text).unwrap()
}

#[test]
fn a_root_in_the_databases_scores_their_value_and_keeps_it() {
    let tablebase = tablebase();
    // Two kings far from the lone one: a win for White, a loss for Black to move; kings on 1
    // and 2 against one on 10: every move lets Black exchange, a draw.
    for text in ["W:WK1,K10:BK28", "B:WK1,K10:BK28", "W:WK1,K2:BK10", "W:W22,K30:BK4,K8"] {
        let position = italian(text);
        let value = tablebase.probe(&position).expect("in the databases");
        let options = Options { multipv: 3, ..with_databases() };
        let result = search(&position, &[], &Limits::depth(4), &options);
        assert_eq!(result.score, Score::Database(value), "{text}");
        // Every line says the value after its first move; the best one keeps the root's value.
        for line in &result.lines {
            let child = tablebase.probe(&position.play_unchecked(&line.pv[0])).unwrap();
            assert_eq!(line.score, Score::Database(child.opposite()), "{text}");
        }
        let best = position.play_unchecked(&result.best_move.unwrap());
        assert_eq!(tablebase.probe(&best).map(Wdl::opposite), Some(value), "{text}");
    }
}

#[test]
fn a_won_root_keeps_every_winning_move_when_a_balance_below_it_is_missing() {
    // A man about to promote and a king against a king, in a folder without the two kings
    // against one: a promotion's value is unknown, so nothing says it converts soonest, and the
    // king's winning moves stay among the root moves beside the two promotions.
    let dir = common::temporary_dir("missing-balance");
    egtb::build(Variant::Italian, 3, Some(&dir), |_| {}).unwrap();
    for extension in ["wdl", "dtc"] {
        std::fs::remove_file(dir.join("italian").join(format!("0201.{extension}"))).unwrap();
    }
    let partial = Arc::new(Tablebase::open(&dir, Variant::Italian).unwrap());
    let position = italian("W:W5,K32:BK20");
    assert_eq!(partial.probe(&position), Some(Wdl::Win));
    let options = Options { multipv: 3, tablebase: Some(partial), ..Options::default() };
    let result = search(&position, &[], &Limits::depth(4), &options);
    let promotes: Vec<bool> = result.lines.iter().map(|line| line.pv[0].promotes()).collect();
    assert_eq!(promotes.len(), 3, "{promotes:?}");
    assert!(promotes.contains(&false), "no king move among the lines: {promotes:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_search_does_not_look_below_a_position_in_the_databases() {
    // Five pieces, outside the tables; the one legal move, 22x13, leads into them.
    let position = italian("W:W22,K30:B18,K4,K8");
    let with = search(&position, &[], &Limits::depth(12), &with_databases());
    let without = search(&position, &[], &Limits::depth(12), &Options::default());
    let child = tablebase().probe(&position.play_unchecked(&with.best_move.unwrap())).unwrap();
    assert_eq!(with.score, Score::Database(child.opposite()));
    // The root and its one child in each of the twelve iterations.
    assert!(with.nodes <= 24, "{} nodes with the databases", with.nodes);
    assert!(without.nodes > 1000, "{} nodes without them", without.nodes);
    assert!(matches!(without.score, Score::Value(_) | Score::WinIn(_) | Score::LossIn(_)));
}

#[test]
fn a_database_win_deeper_in_the_line_reads_as_a_database_win() {
    // Five pieces: a man a side and three kings; the search reaches the tables after captures.
    let position = italian("W:W22,K1,K2:B18,K32");
    let result = search(&position, &[], &Limits::depth(6), &with_databases());
    assert!(matches!(result.score, Score::Database(Wdl::Win) | Score::WinIn(_)), "{:?}", result.score);
}

#[test]
fn weaker_levels_and_default_options_do_not_use_the_databases() {
    let position = italian("W:WK1,K10:BK28");
    let weaker = search(&position, &[], &Limits::depth(4), &Options { level: 12, ..with_databases() });
    assert!(matches!(weaker.score, Score::Value(_)), "{:?}", weaker.score);
    let default = search(&position, &[], &Limits::depth(4), &Options::default());
    assert!(matches!(default.score, Score::Value(_)), "{:?}", default.score);
}

/// Plays `start` out, White with `white`, Black with `black`, each move a search of `nodes`
/// nodes, under the move count Black asks for at once when each side has a king (RULES.md 2.11:
/// each side may make 40 king moves without a capture). Returns the finished game.
fn play_out(start: Position, white: &Options, black: &Options, nodes: u64) -> Game {
    let mut game = Game::from_position(start);
    let _ = game.request_move_count(Color::Black); // refused when a side has no king
    let table = [TranspositionTable::new(4), TranspositionTable::new(4)];
    while game.outcome() == Outcome::Ongoing && game.ply() < 300 {
        let turn = game.position().turn();
        let options = if turn == Color::White { white } else { black };
        let (current, history) = game.positions().split_last().unwrap();
        let stop = AtomicBool::new(false);
        let result = search_with(current, history, &Limits::nodes(nodes), options, &table[turn.index()], &stop, |_| {});
        game.play_move(&result.best_move.unwrap()).unwrap();
    }
    game
}

/// Positions of `material` with White to move that the databases call White's wins, a fixed
/// spread of them.
fn won_positions(material: &str, count: usize) -> Vec<Position> {
    let material: Material = material.parse().unwrap();
    let won: Vec<Position> = tablebase()
        .positions(material)
        .filter(|(p, value)| p.turn() == Color::White && *value == Wdl::Win && p.material_outcome().is_none())
        .map(|(p, _)| p)
        .filter(|p| !p.legal_moves()[0].is_capture())
        .collect();
    let step = won.len() / count;
    won.into_iter().step_by(step).take(count).collect()
}

#[test]
fn with_databases_the_engine_wins_its_database_wins_within_the_move_count() {
    // Kings against kings, kings and men against a man or a king: 50 won positions, the engine
    // with the databases against the engine without, 20,000 nodes a move. (At 5,000 nodes a move
    // the engine with them won 49 and the engine without them 44, playing White from the same
    // positions; at 20,000, 50 and 49.)
    let without = Options::default();
    let mut starts = vec![italian("W:WK1,K10:BK28"), italian("W:WK29,K30:BK4")];
    for (material, count) in
        [("0201", 12), ("0301", 4), ("1201", 4), ("0202", 8), ("1210", 4), ("0211", 8), ("1111", 8)]
    {
        starts.extend(won_positions(material, count));
    }
    for start in starts {
        let game = play_out(start, &with_databases(), &without, 20_000);
        let moves: Vec<&str> = game.moves().iter().map(|m| m.notation.as_str()).collect();
        assert!(
            matches!(
                game.outcome(),
                Outcome::Win { winner: Color::White, reason: WinReason::NoPieces | WinReason::NoMoves }
            ),
            "{}: {:?} after {} plies: {}",
            start.to_fen(),
            game.outcome(),
            game.ply(),
            moves.join(" ")
        );
    }
}

#[test]
fn with_distances_the_engine_converts_a_database_win_within_its_distance() {
    // The longest conversions of a fixed spread of four-piece wins: whatever the defender plays,
    // each move of the engine's brings the capture, the promotion or the end nearer, so it comes
    // within the distance the databases give, into a position still won.
    let tablebase = tablebase();
    let mut starts: Vec<(u32, Position)> = ["0202", "0211", "1111", "1201", "1210", "0301"]
        .into_iter()
        .flat_map(|material| won_positions(material, 200))
        .map(|p| (tablebase.distance(&p).expect("distances are built"), p))
        .collect();
    starts.sort_by_key(|(distance, _)| std::cmp::Reverse(*distance));
    assert!(starts[0].0 >= 15, "the longest sampled conversion is only {} plies", starts[0].0);
    let without = Options::default();
    for (distance, start) in starts.into_iter().take(8) {
        let material = Material::of(&start);
        let mut game = Game::from_position(start);
        let table = [TranspositionTable::new(4), TranspositionTable::new(4)];
        while game.outcome() == Outcome::Ongoing && Material::of(game.position()) == material {
            let turn = game.position().turn();
            let options = if turn == Color::White { with_databases() } else { without.clone() };
            let (current, history) = game.positions().split_last().unwrap();
            let stop = AtomicBool::new(false);
            let limits = Limits::nodes(2_000);
            let result = search_with(current, history, &limits, &options, &table[turn.index()], &stop, |_| {});
            game.play_move(&result.best_move.unwrap()).unwrap();
        }
        let plies = game.ply();
        assert!(plies <= distance as usize, "{}: converted after {plies} plies, {distance} given", start.to_fen());
        let converted = game.position();
        let for_white = match tablebase.probe(converted) {
            Some(value) if converted.turn() == Color::White => Some(value),
            value => value.map(Wdl::opposite),
        };
        assert!(
            for_white == Some(Wdl::Win) || matches!(game.outcome(), Outcome::Win { winner: Color::White, .. }),
            "{}: {:?} after the conversion, {}",
            start.to_fen(),
            for_white,
            converted.to_fen()
        );
    }
}
