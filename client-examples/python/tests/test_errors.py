"""Failed calls decode into their ErrorInfo reason, metadata and BadRequest field violations."""

import grpc
import pytest

from damiera.v1 import game_service_pb2, rules_service_pb2, types_pb2
from damiera_client.errors import DamieraError, FieldViolation, decode_error
from damiera_client.hosted_game import HostedGame
from damiera_client.limits import search_limits
from shared import ITALIAN_OPENING_MOVES


def refusal_of(call) -> DamieraError:
    with pytest.raises(grpc.RpcError) as raised:
        call()
    return decode_error(raised.value)


def test_an_illegal_move_is_refused_with_the_legal_moves(services):
    request = rules_service_pb2.ApplyMoveRequest(variant=types_pb2.VARIANT_ITALIAN, notation="22-17")
    error = refusal_of(lambda: services.rules.ApplyMove(request))
    assert error.code == grpc.StatusCode.INVALID_ARGUMENT
    assert error.reason == "ILLEGAL_MOVE"
    assert error.domain == "damiera.dev"
    assert error.legal_moves == ITALIAN_OPENING_MOVES
    assert [violation.field for violation in error.field_violations] == ["notation"]
    assert error.field_violations[0].description.startswith("notation: 22-17 is not a legal move here")


def test_a_missing_variant_names_the_variant_field(services):
    error = refusal_of(
        lambda: services.rules.ApplyMove(rules_service_pb2.ApplyMoveRequest(notation="22-18"))
    )
    assert error.reason == "UNSUPPORTED_VARIANT"
    assert [violation.field for violation in error.field_violations] == ["variant"]


def test_a_bad_fen_names_the_token_at_fault(services):
    request = rules_service_pb2.ParsePositionRequest(
        variant=types_pb2.VARIANT_ITALIAN, fen="W:W99:B1"
    )
    error = refusal_of(lambda: services.rules.ParsePosition(request))
    assert (error.reason, error.metadata) == ("INVALID_FEN", {"token": "99"})
    assert error.field_violations == (
        FieldViolation("fen", "fen: invalid FEN: token '99': square '99' is off the board"),
    )


def test_a_move_without_the_seat_token_is_unauthenticated(services):
    game = HostedGame.create_against_engine(
        services, types_pb2.VARIANT_ITALIAN, engine=search_limits(depth=1)
    )
    request = game_service_pb2.MakeMoveRequest(name=game.name, notation="22-18")
    error = refusal_of(lambda: services.games.MakeMove(request))
    assert (error.code, error.reason) == (grpc.StatusCode.UNAUTHENTICATED, "MISSING_TOKEN")


def test_a_move_for_a_stale_ply_is_aborted_and_not_retried(services):
    game = HostedGame.create_against_engine(
        services, types_pb2.VARIANT_ITALIAN, engine=search_limits(depth=1)
    )
    error = refusal_of(lambda: game.make_move("22-18", expected_ply=5))
    assert (error.code, error.reason) == (grpc.StatusCode.ABORTED, "STALE_STATE")
    assert [violation.field for violation in error.field_violations] == ["expected_ply"]
    assert game.get().state.ply == 0


def test_an_ambiguous_short_form_lists_the_moves_it_fits(services):
    request = rules_service_pb2.ApplyMoveRequest(
        variant=types_pb2.VARIANT_ITALIAN, fen="W:W22:B19,11,18,10", notation="22x6"
    )
    error = refusal_of(lambda: services.rules.ApplyMove(request))
    assert error.reason == "AMBIGUOUS_MOVE"
    # In the legal moves' order, the same on every run (docs/architecture.md).
    assert error.metadata["candidates"].split() == ["22x13x6", "22x15x6"]
