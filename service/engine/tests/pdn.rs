//! PDN games (the `pdn` module): hand-written files for each variant, write-read-write round trips
//! of generated games, the writer's canonical form, and every error with the line it names.

use damiera_engine::pdn::{self, GameResult, PdnErrorKind, PdnGame};
use damiera_engine::{fen, Color, FirstMover, Game, GameOptions, Outcome, Position, Variant, WinReason};

fn data(name: &str) -> String {
    let path = format!("{}/tests/data/pdn/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn read(text: &str, default_variant: Variant) -> Vec<PdnGame> {
    pdn::read_games(text, default_variant).unwrap_or_else(|e| panic!("{e}"))
}

fn moves(game: &Game) -> Vec<&str> {
    game.moves().iter().map(|m| m.notation.as_str()).collect()
}

fn tags(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs.iter().map(|(name, value)| (String::from(*name), String::from(*value))).collect()
}

fn win(winner: Color, reason: WinReason) -> Outcome {
    Outcome::Win { winner, reason }
}

/// Plays up to `plies` moves picked by a fixed-seed LCG: the same games on every run and machine.
fn generated_game(mut game: Game, seed: u64, plies: usize) -> Game {
    let mut state = seed;
    for _ in 0..plies {
        if game.outcome().is_over() {
            break;
        }
        let legal = game.position().legal_moves();
        state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        let mv = legal[(state >> 33) as usize % legal.len()];
        game.play_move(&mv).unwrap();
    }
    game
}

fn black_first() -> GameOptions {
    GameOptions { first_mover: FirstMover::Black, ..GameOptions::default() }
}

// ---------------------------------------------------------------------------------------------
// Hand-written files

/// Two games with a BOM and CRLF line endings, a multi-line comment, `;` comments, nested
/// variations, NAGs, move suffixes, `6...`, the short capture form, and a second game set up with
/// Black to move (`1...`) whose tags run straight into its moves.
#[test]
fn italian_file_reads_both_games_through_the_annotations() {
    let text = data("italian.pdn");
    assert!(text.starts_with('\u{feff}') && text.contains("\r\n"), "italian.pdn must keep its BOM and CRLF endings");
    let games = read(&text, Variant::Italian);
    assert_eq!(games.len(), 2);

    let first = &games[0];
    assert_eq!(
        first.tags,
        tags(&[
            ("Event", "Campionato Provinciale"),
            ("Site", "Trieste ITA"),
            ("Date", "2023.03.12"),
            ("Round", "4"),
            ("White", "Bianchi, Marco"),
            ("Black", "Neri, Luca"),
            ("Result", "1-0"),
            ("GameType", "22,W,8,8,N2,1"),
            ("Annotator", "Verdi, Giorgio"),
        ])
    );
    assert_eq!(
        moves(&first.game),
        [
            "22-18", "11-14", "18x11", "6x15", "23-20", "15-19", "27-22", "12-16", "22x15", "16x23", "28x19", "8-12",
            "15x8", "9-13", "32-28", "2-6", "21-17", "13-18", "26-21", "7-11", "21x14x7", "4x11", "30-26", "5-9",
        ]
    );
    assert_eq!(first.game.position().to_fen(), "W:W8,17,19,24,25,26,28,29,31:B1,3,6,9,10,11");
    assert_eq!(first.result, Some(GameResult::WhiteWins));
    assert_eq!(first.game.outcome(), Outcome::Ongoing, "Black resigned: the board has not decided");

    let second = &games[1];
    assert_eq!(second.tag("Round"), Some("5"));
    assert_eq!(second.tag("fen"), Some("B:W8,20,25,27,32:B2,3,4,7,18,K21"));
    assert_eq!(second.game.start().to_fen(), "B:W8,20,25,27,32:B2,3,4,7,18,K21");
    assert_eq!(
        moves(&second.game),
        ["2-6", "20-16", "7-12", "16x7", "3x12", "27-22", "18x27", "32-28", "6-11", "28-23", "11-15", "23-20", "15x24"]
    );
    assert_eq!(second.game.position().to_fen(), "W:W8,25:B4,12,K21,24,27");
    assert_eq!(second.game.outcome(), win(Color::Black, WinReason::NoMoves));
    assert_eq!(second.result, Some(GameResult::BlackWins));

    // Line endings and the BOM change nothing.
    let plain = text.trim_start_matches('\u{feff}').replace("\r\n", "\n");
    let plain_games = read(&plain, Variant::Italian);
    for (crlf, lf) in games.iter().zip(&plain_games) {
        assert_eq!((&crlf.tags, crlf.game.moves(), crlf.result), (&lf.tags, lf.game.moves(), lf.result));
    }
}

/// `22` on a 10x10 board is Triestina, whatever the caller's default; short captures expand.
#[test]
fn triestina_file_takes_its_variant_from_the_game_type() {
    let games = read(&data("triestina.pdn"), Variant::Italian);
    assert_eq!(games.len(), 1);
    let game = &games[0].game;
    assert_eq!(game.variant(), Variant::Triestina);
    assert_eq!(*game.start(), Position::start(Variant::Triestina));
    assert_eq!(
        moves(game),
        [
            "32-27", "19-24", "33-28", "24x33", "37x28", "18-24", "28x19", "14x25", "42-37", "13-18", "34-29", "25x34",
            "38x29", "8-13", "31-26", "17-23", "35-30", "23x32", "36x27", "16-22", "26x17x8", "4x13", "39-35", "9-14",
            "27-23", "18x27", "29-24", "14-19", "43-38", "19x28", "35-29", "13-17", "38-33", "27x38", "44x33x24",
            "5-9", "48-43", "11-16", "46-42", "17-23",
        ]
    );
    assert_eq!(game.position().to_fen(), "W:W24,29,30,37,40,41,42,43,45,47,49,50:B1,2,3,6,7,9,10,12,15,16,20,23");
    assert_eq!(games[0].result, Some(GameResult::Unfinished));
    assert_eq!(game.outcome(), Outcome::Ongoing);
}

/// A bare `30`, a game the rules end (lone man against a king), and a game where Black moved first.
#[test]
fn turkish_file_reads_a_rules_ending_and_a_black_first_game() {
    let games = read(&data("turkish.pdn"), Variant::Italian);
    assert_eq!(games.len(), 2);

    let first = &games[0].game;
    assert_eq!(first.variant(), Variant::Turkish);
    assert_eq!(moves(first).len(), 31);
    assert_eq!(&moves(first)[..5], ["g3-g4", "b6-b5", "g4-f4", "f6-f5", "f4xf6xf8"]);
    assert_eq!(first.position().to_fen(), "B:Wa2,a4,b2,b7,c2,c3,d2,d4,e2,e5,f2,f3,g2,Kg8,h2,h3:Bh7");
    assert_eq!(first.outcome(), win(Color::White, WinReason::LoneManAgainstKing));
    assert_eq!(games[0].result, Some(GameResult::WhiteWins));

    let second = &games[1].game;
    assert_eq!(second.options().first_mover, FirstMover::Black);
    assert_eq!(*second.start(), Position::start(Variant::Turkish).with_turn(Color::Black));
    assert_eq!(moves(second), ["d6-d5", "d3-d4", "d5xd3xd1", "c2-d2", "d1xd4"]);
    assert_eq!(games[1].result, Some(GameResult::Unfinished));
}

// ---------------------------------------------------------------------------------------------
// Round trips

/// Writes `game`, reads it back with a wrong default variant (the `GameType` tag must decide),
/// checks that nothing was lost, writes it again and expects the same text.
fn assert_round_trip(game: &Game, extra_tags: &[(String, String)]) -> String {
    let text = pdn::write_game(game, extra_tags);
    let wrong_default = if game.variant() == Variant::Turkish { Variant::Italian } else { Variant::Turkish };
    let games = read(&text, wrong_default);
    assert_eq!(games.len(), 1, "{text}");
    let back = &games[0];
    assert_eq!(back.game.variant(), game.variant());
    assert_eq!(back.game.start(), game.start());
    assert_eq!(back.game.moves(), game.moves(), "{text}");
    assert_eq!(back.game.outcome(), game.outcome());
    assert_eq!(back.result, Some(GameResult::from_outcome(game.outcome())));
    assert_eq!(pdn::write_game(&back.game, &back.tags), text);
    assert_eq!(back.to_pdn(), text);
    for line in text.lines().filter(|line| !line.starts_with('[')) {
        assert!(line.len() <= 80, "line too long: {line}");
    }
    text
}

#[test]
fn generated_games_round_trip_in_every_variant() {
    let extra = tags(&[("Event", "Self-play"), ("Opening", "random"), ("White", "seed")]);
    for variant in Variant::ALL {
        for seed in 1..=12 {
            let game = generated_game(Game::new(variant), seed, 60);
            assert!(game.ply() >= 20, "{variant} seed {seed}: {} plies", game.ply());
            let text = assert_round_trip(&game, &extra);
            assert!(!text.contains("[SetUp"), "{text}");
        }
    }
}

/// Long games reach an ending by the rules; the written result is that ending's.
#[test]
fn games_played_to_their_end_round_trip_with_their_result() {
    let mut results = Vec::new();
    for variant in Variant::ALL {
        for seed in 1..=4 {
            let game = generated_game(Game::new(variant), seed, 400);
            let text = assert_round_trip(&game, &[]);
            results.push(text.lines().last().unwrap().rsplit(' ').next().unwrap().to_string());
        }
    }
    assert!(results.iter().any(|r| r == "1-0") && results.iter().any(|r| r == "0-1"), "{results:?}");
}

#[test]
fn turkish_game_with_black_first_writes_its_start_as_a_set_up_position() {
    let game = generated_game(Game::with_options(Variant::Turkish, black_first()).unwrap(), 7, 40);
    let text = assert_round_trip(&game, &[]);
    let fen = "B:Wa2,a3,b2,b3,c2,c3,d2,d3,e2,e3,f2,f3,g2,g3,h2,h3:Ba6,a7,b6,b7,c6,c7,d6,d7,e6,e7,f6,f7,g6,g7,h6,h7";
    assert!(text.contains(&format!("[GameType \"30,W,8,8,A0,0\"]\n[SetUp \"1\"]\n[FEN \"{fen}\"]\n\n1... ")), "{text}");
    let back = read(&text, Variant::Turkish);
    assert_eq!(back[0].game.options().first_mover, FirstMover::Black);
}

#[test]
fn set_up_positions_round_trip_with_their_fen() {
    let cases = [
        (Variant::Italian, "W:W18,21,K30:B10,11,K26"),
        (Variant::Italian, "B:W8,20,25,27,32:B2,3,4,7,18,K21"),
        (Variant::Triestina, "W:W31,32,33,K46:B1,2,K50"),
        (Variant::Turkish, "W:Wa2,b3,Kd4:Ba7,Kh1,h6"),
    ];
    for (variant, start) in cases {
        let game = generated_game(Game::from_position(fen::parse(variant, start).unwrap()), 3, 30);
        let text = assert_round_trip(&game, &tags(&[("Event", "Problem")]));
        assert!(text.contains(&format!("[SetUp \"1\"]\n[FEN \"{start}\"]\n")), "{text}");
    }
}

/// The canonical file is what the writer produces: reading it and writing every game back gives
/// the same bytes. It pins the written form (tag order, numbering, wrapping) for reviewers.
#[test]
fn canonical_file_is_written_back_byte_for_byte() {
    use Variant::{Italian, Triestina, Turkish};
    let text = data("canonical.pdn");
    let games = read(&text, Variant::Italian);
    let variants: Vec<Variant> = games.iter().map(|g| g.game.variant()).collect();
    assert_eq!(variants, [Italian, Italian, Triestina, Turkish, Turkish]);
    let outcomes: Vec<Outcome> = games.iter().map(|g| g.game.outcome()).collect();
    assert_eq!(outcomes[1], win(Color::Black, WinReason::NoMoves));
    assert_eq!(outcomes[3], win(Color::White, WinReason::LoneManAgainstKing));
    let written: Vec<String> = games.iter().map(PdnGame::to_pdn).collect();
    assert_eq!(written.join("\n"), text);
}

// ---------------------------------------------------------------------------------------------
// The writer

#[test]
fn writer_puts_standard_tags_first_and_fills_the_missing_ones() {
    let mut game = Game::new(Variant::Italian);
    game.play("23-19").unwrap();
    game.play("10-14").unwrap();
    let given = tags(&[
        ("Black", "Neri, Luca"),
        ("Opening", "Bianco 23-19"),
        ("Event", "Serata al circolo"),
        ("GameType", "20"), // computed from the game: the caller's value is ignored
        ("fen", "W:W1:B32"),
        ("Result", "?"),
    ]);
    let expected = "\
[Event \"Serata al circolo\"]
[Site \"?\"]
[Date \"????.??.??\"]
[Round \"?\"]
[White \"?\"]
[Black \"Neri, Luca\"]
[Result \"*\"]
[GameType \"22,W,8,8,N2,1\"]
[Opening \"Bianco 23-19\"]

1. 23-19 10-14 *
";
    assert_eq!(pdn::write_game(&game, &given), expected);
}

#[test]
fn writer_takes_the_callers_result_over_the_outcome() {
    let mut game = Game::new(Variant::Turkish);
    game.play("e3-e4").unwrap();
    let written = pdn::write_game(&game, &tags(&[("Result", "0-2")]));
    assert!(written.contains("[Result \"0-1\"]\n"), "{written}");
    assert!(written.ends_with("\n\n1. e3-e4 0-1\n"), "{written}");
    // The declared result survives a round trip through `to_pdn`, Result tag or not.
    let pdn = &read("1. e3-e4 1/2-1/2", Variant::Turkish)[0];
    assert!(pdn.to_pdn().ends_with("[Result \"1/2-1/2\"]\n[GameType \"30,W,8,8,A0,0\"]\n\n1. e3-e4 1/2-1/2\n"));
}

#[test]
fn writer_escapes_quotes_and_backslashes_in_tag_values() {
    let given = tags(&[("White", r#"Rossi, "Il Dottore""#), ("Site", r"C:\circolo")]);
    let text = pdn::write_game(&Game::new(Variant::Italian), &given);
    assert!(text.contains(r#"[White "Rossi, \"Il Dottore\""]"#), "{text}");
    assert!(text.contains(r#"[Site "C:\\circolo"]"#), "{text}");
    let back = read(&text, Variant::Italian);
    assert_eq!(back[0].tag("White"), Some(r#"Rossi, "Il Dottore""#));
    assert_eq!(back[0].tag("Site"), Some(r"C:\circolo"));
}

#[test]
fn writer_writes_control_characters_in_tag_values_as_spaces_so_the_game_reads_back() {
    let given = tags(&[("White", "Anna\nBianchi"), ("Black", "Bea\t\u{7}Neri\r")]);
    let text = pdn::write_game(&Game::new(Variant::Italian), &given);
    assert!(text.contains("[White \"Anna Bianchi\"]\n"), "{text}");
    assert!(text.contains("[Black \"Bea  Neri \"]\n"), "{text}");
    let back = read(&text, Variant::Italian);
    assert_eq!((back[0].tag("White"), back[0].tag("Black")), (Some("Anna Bianchi"), Some("Bea  Neri ")));
}

#[test]
fn an_empty_game_is_its_tags_and_a_result() {
    let text = pdn::write_game(&Game::new(Variant::Triestina), &[]);
    assert!(text.ends_with("[GameType \"22,W,10,10,N2,1\"]\n\n*\n"), "{text}");
    let back = read(&text, Variant::Italian);
    assert_eq!((back[0].game.variant(), back[0].game.ply()), (Variant::Triestina, 0));
}

// ---------------------------------------------------------------------------------------------
// Reading: tags, results, tolerance

#[test]
fn game_type_forms_and_the_default_variant() {
    let cases = [
        ("22", Variant::Italian, Color::White),
        ("22,W,8,8,N2,1", Variant::Italian, Color::White),
        ("22,W,10,10,N2,1", Variant::Triestina, Color::White),
        ("22,W,10,10,N2", Variant::Triestina, Color::White),
        ("30", Variant::Turkish, Color::White),
        ("30,W,8,8,A0,0", Variant::Turkish, Color::White),
        ("30,W,8,8,A1,0", Variant::Turkish, Color::White),
        (" 30 , B , 8 , 8 , A0 , 0 ", Variant::Turkish, Color::Black),
    ];
    for (value, variant, first) in cases {
        let text = format!("[GameType \"{value}\"]\n*\n");
        let game = &read(&text, Variant::Triestina)[0].game;
        assert_eq!((game.variant(), game.start().turn()), (variant, first), "{value}");
        assert_eq!(*game.start(), Position::start(variant).with_turn(first), "{value}");
    }
    for variant in Variant::ALL {
        assert_eq!(read("[Event \"x\"]\n*", variant)[0].game.variant(), variant);
    }
}

#[test]
fn results_read_in_both_scorings() {
    let cases = [
        ("1-0", Some(GameResult::WhiteWins)),
        ("2-0", Some(GameResult::WhiteWins)),
        ("0-1", Some(GameResult::BlackWins)),
        ("0-2", Some(GameResult::BlackWins)),
        ("1/2-1/2", Some(GameResult::Draw)),
        ("1-1", Some(GameResult::Draw)),
        ("0-0", Some(GameResult::NeitherScores)),
        ("*", Some(GameResult::Unfinished)),
        ("", None),
    ];
    for (token, result) in cases {
        let from_movetext = read(&format!("1. 23-19 10-14 {token}"), Variant::Italian);
        assert_eq!(from_movetext[0].result, result, "move text {token:?}");
        let from_tag = read(&format!("[Result \"{token}\"]\n1. 23-19 10-14"), Variant::Italian);
        assert_eq!(from_tag[0].result, result, "tag {token:?}");
        assert_eq!(from_tag[0].game.ply(), 2);
    }
    assert_eq!(read("[Result \"?\"]\n1. 23-19", Variant::Italian)[0].result, None);
}

/// Games need no blank lines, no result and no move numbers; tags may share a line.
#[test]
fn games_split_on_tags_even_without_blank_lines_or_results() {
    let text = "[Event \"a\"][Round \"1\"]\n23-19 10-14 19x10\n[Event \"b\"]\n1.22-18 12-16 2.18-13 *\n[Event \"c\"]";
    let games = read(text, Variant::Italian);
    let summary: Vec<(Option<&str>, usize, Option<GameResult>)> =
        games.iter().map(|g| (g.tag("Event"), g.game.ply(), g.result)).collect();
    assert_eq!(summary, [(Some("a"), 3, None), (Some("b"), 3, Some(GameResult::Unfinished)), (Some("c"), 0, None)]);
    assert_eq!(games[0].tag("Round"), Some("1"));
    assert!(read("", Variant::Italian).is_empty());
    assert!(read("\u{feff}\r\n{only a comment}\r\n; and a line comment\r\n", Variant::Italian).is_empty());
}

/// Suffixes, a `*` suffix included, NAGs, `...` on its own and comments between number and move.
#[test]
fn annotations_around_moves_are_skipped() {
    let text = "1. 23-19! $1 10-14?? 2. {forced} 19x10* ... 5x14!? $3 (2... 6x13 $5) ; end\n*";
    let games = read(text, Variant::Italian);
    assert_eq!(moves(&games[0].game), ["23-19", "10-14", "19x10", "5x14"]);
    assert_eq!(games[0].result, Some(GameResult::Unfinished));
}

// ---------------------------------------------------------------------------------------------
// Errors: each names the line (and column) of the token at fault

/// (what, text, line, column, message after "line N: ").
const ERRORS: &[(&str, &str, usize, usize, &str)] = &[
    (
        "illegal move",
        "[Event \"x\"]\n[GameType \"22\"]\n\n1. 23-19 10-14\n2. 23-18 *",
        5,
        4,
        "23-18 is not a legal move here; legal moves: 19x10",
    ),
    (
        "illegal move in the second game, CRLF",
        "[Event \"a\"]\r\n\r\n1. 23-19 *\r\n\r\n[Event \"b\"]\r\n\r\n1. 23-19 10-14 2. 22-18 *\r\n",
        7,
        19,
        "22-18 is not a legal move here; legal moves: 19x10",
    ),
    (
        "move after the end of the game",
        "[FEN \"W:W29:B22,25,26\"]\n1. 29-25 *",
        2,
        4,
        "29-25 comes after the end of the game (black wins (no_moves))",
    ),
    (
        "unterminated comment",
        "[Event \"x\"]\n\n1. 23-19 {never\nclosed 10-14 *\n",
        3,
        10,
        "unterminated comment: this '{' is never closed",
    ),
    (
        "unterminated tag value",
        "[Event \"x\"]\n[Site \"Trieste\n\n1. 23-19 *",
        2,
        1,
        "unterminated tag: a tag must end with '\"]' on its line",
    ),
    (
        "tag without its closing bracket",
        "[Event \"x\"]\n  [Site \"Trieste\"\n\n1. 23-19 *",
        2,
        3,
        "unterminated tag: a tag must end with '\"]' on its line",
    ),
    (
        "tag value without quotes",
        "[Event \"x\"]\n[Site Trieste]\n1. 23-19 *",
        2,
        1,
        "bad tag: expected a quoted value after Site: [Site Trieste]",
    ),
    ("tag without a name", "\n[ \"x\"]\n", 2, 1, "bad tag: expected a tag name after '[': [ \"x\"]"),
    (
        "text after a tag's value",
        "[Event \"x\" extra]\n",
        1,
        1,
        "bad tag: expected ']' after the value of Event: [Event \"x\" extra]",
    ),
    (
        "unterminated variation",
        "[Event \"x\"]\n1. 23-19 (1. 22-18\n(1. 21-17) 12-16\n10-14 *\n",
        2,
        10,
        "unterminated variation: this '(' is never closed",
    ),
    (
        "variation running into the next game",
        "1. 23-19 10-14 (2. 22-18 *\n\n[Event \"next\"]\n1. 23-19 *",
        1,
        16,
        "unterminated variation: this '(' is never closed",
    ),
    ("variation closed twice", "1. 23-19 (1. 22-18))\n10-14 *", 1, 20, "')' closes nothing"),
    ("stray closing brace", "1. 23-19\n10-14 } *", 2, 7, "'}' closes nothing"),
    (
        "unsupported game type",
        "[Event \"x\"]\n[GameType \"20,W,10,10,N2,0\"]\n1. 32-28 *",
        2,
        1,
        "unsupported GameType \"20,W,10,10,N2,0\" (international draughts): Damiera plays 22 \
         on 8x8 (Dama Italiana) or 10x10 (Dama Triestina), and 30 on 8x8 (Dama Turca); only Dama Turca \
         may start with Black",
    ),
    (
        "Italian rules on a board Damiera does not have",
        "[GameType \"22,W,12,12,N2,1\"]\n*",
        1,
        1,
        "unsupported GameType \"22,W,12,12,N2,1\" (a 12x12 board): Damiera plays 22 \
         on 8x8 (Dama Italiana) or 10x10 (Dama Triestina), and 30 on 8x8 (Dama Turca); only Dama Turca \
         may start with Black",
    ),
    (
        "Italian with Black first",
        "[GameType \"22,B,8,8,N2,1\"]\n*",
        1,
        1,
        "unsupported GameType \"22,B,8,8,N2,1\" (Black first; in Dama Italiana White moves first): \
         Damiera plays 22 on 8x8 (Dama Italiana) or 10x10 (Dama Triestina), and 30 on 8x8 (Dama Turca); \
         only Dama Turca may start with Black",
    ),
    (
        "game type with too few fields",
        "\n\n[GameType \"22,W,8\"]\n*",
        3,
        1,
        "bad GameType \"22,W,8\": expected Typenumber[,Startcolour,Boardwidth,Boardheight,Notation[,Invertflag]]",
    ),
    (
        "game type with a bad notation field",
        "[GameType \"30,W,8,8,X9,0\"]\n*",
        1,
        1,
        "bad GameType \"30,W,8,8,X9,0\": expected Typenumber[,Startcolour,Boardwidth,Boardheight,Notation[,Invertflag]]",
    ),
    ("SetUp without FEN", "[Event \"x\"]\n[SetUp \"1\"]\n\n1. 23-19 *", 2, 1, "SetUp \"1\" needs a FEN tag"),
    (
        "text after the result",
        "[Event \"x\"]\n1. 23-19 10-14 1-0 {comments are fine}\n\n2. 19x10 *",
        4,
        1,
        "'2.' after the result: a game ends with its result, and the next one starts with a tag",
    ),
    (
        "results that disagree",
        "[Result \"1-0\"]\n\n1. 23-19 10-14\n0-1",
        4,
        1,
        "the move text ends with 0-1 but the Result tag says 1-0",
    ),
];

#[test]
fn every_error_names_its_line() {
    for &(what, text, line, column, message) in ERRORS {
        let err = pdn::read_games(text, Variant::Italian).expect_err(what);
        assert_eq!((err.line, err.column), (line, column), "{what}: {err}");
        assert_eq!(err.to_string(), format!("line {line}, column {column}: {message}"), "{what}");
    }
}

/// Errors from other modules are wrapped whole, so callers can match on them.
#[test]
fn fen_and_move_errors_keep_their_cause() {
    let bad_fen = "W:W21,21:B1";
    let err = pdn::read_games(&format!("[Event \"x\"]\n[SetUp \"1\"]\n[FEN \"{bad_fen}\"]\n*"), Variant::Italian)
        .unwrap_err();
    assert_eq!(err.line, 3);
    assert_eq!(err.kind, PdnErrorKind::Fen(fen::parse(Variant::Italian, bad_fen).unwrap_err()));
    assert_eq!(err.to_string(), format!("line 3, column 1: {}", fen::parse(Variant::Italian, bad_fen).unwrap_err()));

    // A Turkish FEN in an Italian game: the variant decides how the FEN is read.
    let err = pdn::read_games("[GameType \"22\"]\n[FEN \"W:Wa2:Ba7\"]\n*", Variant::Turkish).unwrap_err();
    assert!(matches!((err.line, &err.kind), (2, PdnErrorKind::Fen(_))), "{err}");

    let err = pdn::read_games("1. 23-19 10-14\n2. hello *", Variant::Italian).unwrap_err();
    let expected = Game::new(Variant::Italian).play("hello").unwrap_err();
    assert_eq!((err.line, err.column), (2, 4));
    assert_eq!(err.kind, PdnErrorKind::Move(expected));
}
