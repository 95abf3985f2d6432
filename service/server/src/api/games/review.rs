//! `ReviewGame`: the game read from the request (a hosted game, moves or PDN), reviewed on the
//! search pool ([`crate::search::review`]) and streamed move by move, then the summary with the
//! evaluation chart.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use damiera_engine::{notation, Color, Game, Variant};
use tokio::sync::mpsc;
use tokio_stream::wrappers::UnboundedReceiverStream;
use tonic::Status;

use super::create::read_pdn;
use crate::api::convert::games::game_id;
use crate::api::convert::search::{limits, replay};
use crate::api::convert::{color_to_pb, non_negative, score_to_pb, variant};
use crate::api::ApiError;
use crate::games::Host;
use crate::proto::{self as pb, review_game_request::Game as Source, review_game_response::Update};
use crate::render::{self, ChartMark, ChartPoint, SIZES};
use crate::search::review::{self, Judgement, ReviewError, ReviewedPly, Searches};
use crate::search::{Asked, Caps, SearchPool, Tablebases};
use crate::tenants::TenantId;

/// How long each position is searched when the request sets no limit.
const DEFAULT_MOVE_TIME: Duration = Duration::from_millis(100);

/// The chart's width when the request does not say.
const DEFAULT_CHART_WIDTH: u32 = 640;

/// The stream of a review.
pub type ReviewStream = UnboundedReceiverStream<Result<pb::ReviewGameResponse, Status>>;

/// What a review needs of the server.
#[derive(Clone, Debug)]
pub struct Reviewer {
    /// Hosted games.
    pub host: Arc<Host>,
    /// Per-request limits.
    pub caps: Arc<Caps>,
    /// Where the searches run.
    pub pool: Arc<SearchPool>,
    /// The endgame databases the searches probe.
    pub tablebases: Tablebases,
    /// The largest PDN text taken, in bytes.
    pub max_pdn_bytes: usize,
}

impl Reviewer {
    /// Checks `request` and starts the review: its messages arrive on the stream answered. A
    /// hosted game is read only if it is `tenant`'s.
    pub async fn start(&self, tenant: &TenantId, request: &pb::ReviewGameRequest) -> Result<ReviewStream, ApiError> {
        let game = self.game(tenant, request.game.as_ref()).await?;
        let mut asked = Asked {
            threads: Some(1),
            hash_mib: Some(non_negative("hash_mib", request.hash_mib)?).filter(|&mib| mib > 0),
            ..limits("limits", request.limits.as_ref())?
        };
        if request.limits.as_ref().is_none_or(|given| *given == pb::SearchLimits::default()) {
            asked.move_time = Some(DEFAULT_MOVE_TIME);
        }
        asked.check(&self.caps).map_err(|error| ApiError::search("", error))?;
        let width = match non_negative("chart_width", request.chart_width)? {
            0 => DEFAULT_CHART_WIDTH,
            width => width,
        };
        if !SIZES.contains(&width) {
            let description = format!("the chart is {} to {} pixels wide; got {width}", SIZES.start(), SIZES.end());
            return Err(ApiError::invalid("chart_width", description));
        }
        let (sender, receiver) = mpsc::unbounded_channel();
        let reviewer = self.clone();
        tokio::spawn(async move {
            tokio::select! {
                () = reviewer.run(&game, &asked, width, &sender) => {}
                () = sender.closed() => {} // the caller has gone: stop searching
            }
        });
        Ok(UnboundedReceiverStream::new(receiver))
    }

    /// The game the request names or carries.
    async fn game(&self, tenant: &TenantId, source: Option<&Source>) -> Result<Game, ApiError> {
        match source {
            None => Err(ApiError::invalid("game", "name a hosted game, or send its moves or PDN")),
            Some(Source::Name(name)) => Ok(self.host.load_as(tenant, &game_id(name)?).await?.1.game),
            Some(Source::Moves(moves)) => {
                let variant = variant("moves.variant", moves.variant)?;
                replay(variant, "moves.", &moves.fen, &moves.moves)
            }
            Some(Source::Pdn(text)) => Ok(read_pdn(text, 0, self.max_pdn_bytes)?.game),
        }
    }

    /// Reviews `game` and sends every message, an error last if it fails.
    async fn run(
        &self,
        game: &Game,
        asked: &Asked,
        width: u32,
        sender: &mpsc::UnboundedSender<Result<pb::ReviewGameResponse, Status>>,
    ) {
        let variant = game.variant();
        let total = game.moves().len() as i32;
        let mut reviewed = Vec::new();
        let session = session_key();
        let on_ply = |ply: ReviewedPly| {
            let message = reviewed_to_pb(variant, &ply, total);
            let _ = sender.send(Ok(pb::ReviewGameResponse { update: Some(Update::ReviewedMove(message)) }));
            reviewed.push(ply);
        };
        let searches = Searches { asked, caps: &self.caps, tablebases: &self.tablebases, pool: &self.pool };
        let outcome = review::review(game, searches, session, on_ply).await;
        let message = outcome
            .map_err(review_error)
            .and_then(|()| summary(&reviewed, width))
            .map(|summary| pb::ReviewGameResponse { update: Some(Update::Summary(summary)) })
            .map_err(Status::from);
        let _ = sender.send(message);
    }
}

/// A session key of the review's own: no client's key holds a control character.
fn session_key() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    format!("\u{1}review {}", NEXT.fetch_add(1, Ordering::Relaxed))
}

fn review_error(error: ReviewError) -> ApiError {
    match error {
        ReviewError::Search(error) => ApiError::search("", error),
        ReviewError::Pool(error) => error.into(),
        ReviewError::Replay(text) => ApiError::Internal(text),
    }
}

fn reviewed_to_pb(variant: Variant, ply: &ReviewedPly, total: i32) -> pb::ReviewedMove {
    pb::ReviewedMove {
        ply: ply.ply as i32,
        color: color_to_pb(ply.mover).into(),
        played: notation::write(variant, &ply.played),
        best_move: ply.best.map(|best| notation::write(variant, &best)).unwrap_or_default(),
        score_before: Some(score_to_pb(ply.before)),
        score_after: Some(score_to_pb(ply.after)),
        expected_before: ply.expected_before,
        expected_after: ply.expected_after,
        judgement: judgement_to_pb(ply.judgement).into(),
        done: ply.ply as i32 + 1,
        total,
    }
}

fn judgement_to_pb(judgement: Judgement) -> pb::Judgement {
    match judgement {
        Judgement::Best => pb::Judgement::Best,
        Judgement::Forced => pb::Judgement::Forced,
        Judgement::Good => pb::Judgement::Good,
        Judgement::Inaccuracy => pb::Judgement::Inaccuracy,
        Judgement::Mistake => pb::Judgement::Mistake,
        Judgement::Blunder => pb::Judgement::Blunder,
    }
}

/// White's share of an expected score for `mover`.
fn for_white(mover: Color, expected: f64) -> f64 {
    match mover {
        Color::White => expected,
        Color::Black => 1.0 - expected,
    }
}

/// The counts of each side's faults and the chart.
fn summary(reviewed: &[ReviewedPly], width: u32) -> Result<pb::ReviewSummary, ApiError> {
    let start = reviewed.first().map_or(0.5, |first| for_white(first.mover, first.expected_before));
    let points: Vec<ChartPoint> = reviewed
        .iter()
        .map(|ply| ChartPoint {
            white_expected: for_white(ply.mover, ply.expected_after),
            mark: match ply.judgement {
                Judgement::Inaccuracy => ChartMark::Inaccuracy,
                Judgement::Mistake => ChartMark::Mistake,
                Judgement::Blunder => ChartMark::Blunder,
                Judgement::Best | Judgement::Forced | Judgement::Good => ChartMark::None,
            },
        })
        .collect();
    let counts = |color: Color| {
        let count = |judgement| reviewed.iter().filter(|p| p.mover == color && p.judgement == judgement).count() as i32;
        pb::JudgementCounts {
            inaccuracies: count(Judgement::Inaccuracy),
            mistakes: count(Judgement::Mistake),
            blunders: count(Judgement::Blunder),
        }
    };
    let chart_png = render::chart_png(start, &points, width).map_err(|error| ApiError::Internal(error.to_string()))?;
    Ok(pb::ReviewSummary {
        start_expected: start,
        white: Some(counts(Color::White)),
        black: Some(counts(Color::Black)),
        chart_svg: render::chart_svg(start, &points, width),
        chart_png,
    })
}
