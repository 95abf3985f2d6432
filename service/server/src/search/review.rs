//! [`review`]: a game's moves judged by the engine, ply by ply.
//!
//! Every position of the game is searched once, in order, on one transposition table kept warm
//! from position to position (an analysis session of the review's own). The score of the position
//! before a move is what the mover could expect with best play; the score of the position after
//! it, negated, is what the move played leaves the mover. Both become an expected score, the
//! share of the game the mover can count on (1 a win, 1/2 a draw, 0 a loss), and the move is
//! judged by how much expected score it gave up ([`Judgement`]).
//!
//! An estimate becomes an expected score through a logistic curve with one man (100) worth 0.76:
//! `1 / (1 + 10^(-estimate / 200))`; a forced or database win is 1, a loss 0, a database draw 1/2.
//! A game that ended by the rules ends with its outcome's score; the position after a resignation
//! or agreed draw is searched like any other.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use damiera_engine::egtb::Wdl;
use damiera_engine::search::Score;
use damiera_engine::{Color, Game, Move, Outcome};

use super::{Asked, Caps, JobError, PoolError, SearchJob, SearchPool, Tablebases};

/// The estimate (in hundredths of a man) that is worth an expected score of 10/11 (about 0.91):
/// two men.
const LOGISTIC_SCALE: f64 = 200.0;

/// Expected score given up, at least, for each judgement.
pub const INACCURACY: f64 = 0.06;
/// See [`INACCURACY`].
pub const MISTAKE: f64 = 0.12;
/// See [`INACCURACY`].
pub const BLUNDER: f64 = 0.20;

/// What a move played is worth, by the expected score it gave up against the engine's best move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Judgement {
    /// The engine's own choice.
    Best,
    /// The only legal move.
    Forced,
    /// Gave up less than [`INACCURACY`].
    Good,
    /// Gave up [`INACCURACY`] or more.
    Inaccuracy,
    /// Gave up [`MISTAKE`] or more.
    Mistake,
    /// Gave up [`BLUNDER`] or more.
    Blunder,
}

/// One move of the game, reviewed.
#[derive(Clone, Debug, PartialEq)]
pub struct ReviewedPly {
    /// The ply of the move: 0 for the first.
    pub ply: usize,
    /// Who played it.
    pub mover: Color,
    /// The move played.
    pub played: Move,
    /// The engine's best move in the position before it.
    pub best: Option<Move>,
    /// The score before the move, for the mover, with best play.
    pub before: Score,
    /// The score after the move played, for the mover.
    pub after: Score,
    /// The expected score before, for the mover.
    pub expected_before: f64,
    /// The expected score after, for the mover.
    pub expected_after: f64,
    /// The judgement.
    pub judgement: Judgement,
}

/// Why a review stopped.
#[derive(Debug, thiserror::Error)]
pub enum ReviewError {
    /// A search could not be set up.
    #[error(transparent)]
    Search(#[from] JobError),
    /// The search pool failed or is overloaded.
    #[error(transparent)]
    Pool(#[from] PoolError),
    /// A move of the game does not replay (a damaged stored game).
    #[error("the game does not replay: {0}")]
    Replay(String),
}

/// The expected score of `score` for the side it is given for.
pub fn expected_score(score: Score) -> f64 {
    match score {
        Score::Value(estimate) => 1.0 / (1.0 + 10f64.powf(-f64::from(estimate) / LOGISTIC_SCALE)),
        Score::WinIn(_) | Score::Database(Wdl::Win) => 1.0,
        Score::LossIn(_) | Score::Database(Wdl::Loss) => 0.0,
        Score::Database(Wdl::Draw) => 0.5,
    }
}

/// The judgement of a move that took the mover's expected score from `before` to `after`.
pub fn judge(before: f64, after: f64) -> Judgement {
    match before - after {
        lost if lost >= BLUNDER => Judgement::Blunder,
        lost if lost >= MISTAKE => Judgement::Mistake,
        lost if lost >= INACCURACY => Judgement::Inaccuracy,
        _ => Judgement::Good,
    }
}

/// How a review searches each position.
#[derive(Clone, Copy, Debug)]
pub struct Searches<'a> {
    /// The search asked for, checked against `caps`.
    pub asked: &'a Asked,
    /// The server's caps.
    pub caps: &'a Caps,
    /// The endgame databases to probe.
    pub tablebases: &'a Tablebases,
    /// Where the searches run.
    pub pool: &'a SearchPool,
}

/// Reviews `game`'s moves, each position searched as `searches` says; `on_ply` hears of each move
/// as it is judged, in order. `session` names the review's table, given back to the pool at the
/// end.
pub async fn review(
    game: &Game,
    searches: Searches<'_>,
    session: String,
    on_ply: impl FnMut(ReviewedPly),
) -> Result<(), ReviewError> {
    let reviewed = review_moves(game, searches, &session, on_ply).await;
    searches.pool.end_session(&session);
    reviewed
}

async fn review_moves(
    game: &Game,
    searches: Searches<'_>,
    session: &str,
    mut on_ply: impl FnMut(ReviewedPly),
) -> Result<(), ReviewError> {
    let mut replay = Game::setup(*game.start(), game.options().forfeit_on_capture_fault)
        .map_err(|error| ReviewError::Replay(error.to_string()))?;
    let mut before: Option<(Score, Option<Move>)> = None;
    for (ply, played) in game.moves().iter().enumerate() {
        let (score, best) = match before.take() {
            Some(known) => known,
            None => searches.run(&replay, session).await?,
        };
        let forced = replay.position().legal_moves().len() == 1;
        replay.play_move(&played.mv).map_err(|error| ReviewError::Replay(error.to_string()))?;
        let (next, next_best) = match replay.outcome() {
            Outcome::Ongoing => searches.run(&replay, session).await?,
            // The score for the side to move after the move: the mover's opponent.
            Outcome::Win { winner, .. } if winner == played.color => (Score::LossIn(0), None),
            Outcome::Win { .. } => (Score::WinIn(0), None),
            Outcome::Draw { .. } => (Score::Database(Wdl::Draw), None),
        };
        before = Some((next, next_best));
        let after = next.negated();
        let (expected_before, expected_after) = (expected_score(score), expected_score(after));
        let judgement = if forced {
            Judgement::Forced
        } else if best == Some(played.mv) {
            Judgement::Best
        } else {
            judge(expected_before, expected_after)
        };
        on_ply(ReviewedPly {
            ply,
            mover: played.color,
            played: played.mv,
            best,
            before: score,
            after,
            expected_before,
            expected_after,
            judgement,
        });
    }
    Ok(())
}

impl Searches<'_> {
    /// The score and best move of `game`'s position for the side to move, searched on the table
    /// of `session`.
    async fn run(&self, game: &Game, session: &str) -> Result<(Score, Option<Move>), ReviewError> {
        let job = SearchJob::new(game, self.asked, self.caps, self.tablebases)?;
        let stop = Arc::new(AtomicBool::new(false));
        let result = self.pool.search(job, Some(session.to_owned()), stop, |_| {}).await?;
        Ok((result.score, result.best_move))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expected_scores_follow_the_documented_curve() {
        assert_eq!(expected_score(Score::Value(0)), 0.5);
        assert!((expected_score(Score::Value(100)) - 0.7597).abs() < 1e-4);
        assert!((expected_score(Score::Value(-200)) - 1.0 / 11.0).abs() < 1e-9);
        assert_eq!(expected_score(Score::WinIn(3)), 1.0);
        assert_eq!(expected_score(Score::Database(Wdl::Draw)), 0.5);
    }

    #[test]
    fn judgements_by_the_expected_score_given_up() {
        assert_eq!(judge(0.5, 0.45), Judgement::Good);
        assert_eq!(judge(0.5, 0.43), Judgement::Inaccuracy);
        assert_eq!(judge(0.5, 0.37), Judgement::Mistake);
        assert_eq!(judge(0.5, 0.29), Judgement::Blunder);
        assert_eq!(judge(0.5, expected_score(Score::Value(-100))), Judgement::Blunder, "a man thrown away");
        assert_eq!(judge(0.3, 0.6), Judgement::Good, "a move that gains is never a fault");
    }
}
