"""RulesService answers exactly: legal moves, moves played, perft counts, pictures of a position."""

from damiera.v1 import rules_service_pb2, types_pb2
from shared import ITALIAN_OPENING_MOVES, PNG_SIGNATURE


def legal_moves(services, variant, fen=""):
    request = rules_service_pb2.ListLegalMovesRequest(variant=variant, fen=fen)
    return services.rules.ListLegalMoves(request)


def test_italian_start_has_seven_legal_moves_in_a_stable_order(services):
    answer = legal_moves(services, types_pb2.VARIANT_ITALIAN)
    assert [move.notation for move in answer.moves] == ITALIAN_OPENING_MOVES
    assert answer.must_capture is False


def test_triestina_and_turkish_starts_have_nine_and_eight_legal_moves(services):
    assert len(legal_moves(services, types_pb2.VARIANT_TRIESTINA).moves) == 9
    assert len(legal_moves(services, types_pb2.VARIANT_TURKISH).moves) == 8


def test_a_forced_capture_leaves_only_captures(services):
    answer = legal_moves(services, types_pb2.VARIANT_ITALIAN, "W:W27,28:B23,15,16")
    assert [move.notation for move in answer.moves] == ["27x20x11", "28x19x12"]
    assert answer.must_capture is True


def test_apply_move_answers_the_new_position(services):
    request = rules_service_pb2.ApplyMoveRequest(variant=types_pb2.VARIANT_ITALIAN, notation="22-18")
    answer = services.rules.ApplyMove(request)
    assert answer.played_move.notation == "22-18"
    assert (
        answer.position.fen == "B:W18,21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    )
    assert answer.position.side_to_move == types_pb2.COLOR_BLACK
    assert answer.status.state == types_pb2.PositionStatus.STATE_ONGOING


def test_a_short_capture_is_written_in_full_and_can_win(services):
    request = rules_service_pb2.ApplyMoveRequest(
        variant=types_pb2.VARIANT_ITALIAN, fen="W:W22:B18,10", notation="22x6"
    )
    answer = services.rules.ApplyMove(request)
    assert answer.played_move.notation == "22x13x6"
    assert list(answer.played_move.path) == ["13", "6"]
    assert list(answer.played_move.captures) == ["18", "10"]
    assert answer.position.fen == "B:W6:B"
    assert answer.status.state == types_pb2.PositionStatus.STATE_WON
    assert answer.status.winner == types_pb2.COLOR_WHITE
    assert answer.status.win_reason == types_pb2.WIN_REASON_NO_PIECES


def test_perft_two_plies_from_the_italian_start_divides_into_seven_times_seven(services):
    request = rules_service_pb2.PerftRequest(
        variant=types_pb2.VARIANT_ITALIAN, depth=2, divide=True
    )
    answer = services.rules.Perft(request)
    assert answer.nodes == 49
    assert [(division.first_move.notation, division.nodes) for division in answer.divisions] == [
        (move, 7) for move in ITALIAN_OPENING_MOVES
    ]


def test_render_position_draws_a_png_and_a_text_board(services):
    request = rules_service_pb2.RenderPositionRequest(
        variant=types_pb2.VARIANT_TURKISH,
        labels=True,
        size=128,
        formats=[rules_service_pb2.IMAGE_FORMAT_PNG, rules_service_pb2.IMAGE_FORMAT_TEXT],
    )
    answer = services.rules.RenderPosition(request)
    assert answer.png.startswith(PNG_SIGNATURE)
    assert answer.svg == ""
    assert answer.text.splitlines() == [
        "8  .  .  .  .  .  .  .  .",
        "7  b  b  b  b  b  b  b  b",
        "6  b  b  b  b  b  b  b  b",
        "5  .  .  .  .  .  .  .  .",
        "4  .  .  .  .  .  .  .  .",
        "3  w  w  w  w  w  w  w  w",
        "2  w  w  w  w  w  w  w  w",
        "1  .  .  .  .  .  .  .  .",
        "   a  b  c  d  e  f  g  h",
    ]
