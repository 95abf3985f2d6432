"""Writes scores, lines of play and game results for people, the same way in every example."""

from damiera.v1 import game_service_pb2, types_pb2

_WIN_REASONS = {
    types_pb2.WIN_REASON_NO_PIECES: "no pieces left",
    types_pb2.WIN_REASON_NO_MOVES: "no legal move",
    types_pb2.WIN_REASON_LONE_MAN_AGAINST_KING: "lone man against a king",
    types_pb2.WIN_REASON_RESIGNATION: "resignation",
    types_pb2.WIN_REASON_CAPTURE_FAULT: "capture fault",
}

# Reasons said of the loser: "Black wins (White lost on time)".
_LOSS_REASONS = {
    types_pb2.WIN_REASON_TIME: "lost on time",
    types_pb2.WIN_REASON_ABANDONMENT: "abandoned the game",
}

_DRAW_REASONS = {
    types_pb2.DRAW_REASON_REPETITION: "repetition",
    types_pb2.DRAW_REASON_MOVE_COUNT: "the move count",
    types_pb2.DRAW_REASON_ONE_PIECE_EACH: "one piece each",
    types_pb2.DRAW_REASON_AGREEMENT: "agreement",
}


_ABORT_REASONS = {
    game_service_pb2.ABORT_REASON_SEAT: "by a player",
    game_service_pb2.ABORT_REASON_NO_FIRST_MOVE: "no first move in time",
}


def format_score(score: types_pb2.Score) -> str:
    """ "+0.35" (men, side to move's view), "win in 7 plies" or "loss in 4 plies"."""
    kind = score.WhichOneof("value")
    if kind == "win_in_plies":
        return f"win in {score.win_in_plies} plies"
    if kind == "loss_in_plies":
        return f"loss in {score.loss_in_plies} plies"
    return f"{score.estimate / 100:+.2f}"


def format_line(moves) -> str:
    """A line of play (repeated Move) as its notations: "22-18 9-13 18x9"."""
    return " ".join(move.notation for move in moves)


def color_name(color: types_pb2.Color) -> str:
    """COLOR_WHITE → "White"."""
    return types_pb2.Color.Name(color).removeprefix("COLOR_").capitalize()


def format_status(
    status: types_pb2.PositionStatus,
    abort_reason: "game_service_pb2.AbortReason" = game_service_pb2.ABORT_REASON_UNSPECIFIED,
) -> str:
    """ "White wins (no legal move)", "Black wins (White lost on time)", "Draw (repetition)",
    "Aborted (no first move in time)" (a hosted game's `state.abort_reason`) or "Ongoing"."""
    if status.state == types_pb2.PositionStatus.STATE_WON:
        if status.win_reason in _LOSS_REASONS:
            white_won = status.winner == types_pb2.COLOR_WHITE
            loser = types_pb2.COLOR_BLACK if white_won else types_pb2.COLOR_WHITE
            reason = f"{color_name(loser)} {_LOSS_REASONS[status.win_reason]}"
        else:
            reason = _WIN_REASONS.get(status.win_reason, "unknown reason")
        return f"{color_name(status.winner)} wins ({reason})"
    if status.state == types_pb2.PositionStatus.STATE_DRAWN:
        return f"Draw ({_DRAW_REASONS.get(status.draw_reason, 'unknown reason')})"
    if status.state == types_pb2.PositionStatus.STATE_ABORTED:
        reason = _ABORT_REASONS.get(abort_reason)
        return f"Aborted ({reason})" if reason else "Aborted"
    return "Ongoing"
