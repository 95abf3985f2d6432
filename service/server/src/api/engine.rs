//! `EngineService`: best moves and streamed analysis, searched on the search pool.
//!
//! A search stops at its limits, at the caller's deadline (in time to answer with the best move
//! so far), or as soon as the caller goes away: dropping the call's future sets the stop flag.

use std::pin::pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use damiera_engine::search::{Iteration, SearchResult};
use damiera_engine::Variant;
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tonic::{Request, Response, Status};

use super::convert::search::{search_job, Unlimited};
use super::convert::{duration_to_pb, lines_to_pb, move_to_pb, moves_to_pb, printable, score_to_pb};
use super::deadline::{search_budget, time_left};
use super::ApiError;
use crate::proto::engine_service_server::EngineService;
use crate::proto::{self as pb, analyze_response::Update, StopReason};
use crate::search::{Caps, SearchJob, SearchPool, Tablebases, MAX_SESSION_KEY_BYTES};

/// Iterations buffered for a slow reader of `Analyze`; a search completes few iterations.
const ANALYSIS_BUFFER: usize = 64;

/// The engine service, sharing the server's caps, endgame databases and search pool.
#[derive(Clone, Debug)]
pub struct EngineApi {
    /// Per-request limits.
    caps: Arc<Caps>,
    /// The endgame databases every search probes.
    tablebases: Tablebases,
    /// Where searches run.
    pool: Arc<SearchPool>,
}

impl EngineApi {
    /// The service over the server's caps, databases and pool.
    pub fn new(caps: Arc<Caps>, tablebases: Tablebases, pool: Arc<SearchPool>) -> EngineApi {
        EngineApi { caps, tablebases, pool }
    }

    /// Runs `job` on the pool (on the table of analysis `session`, if any) until its limits, the
    /// deadline `time_left` away, or until the returned future is dropped.
    async fn search(
        &self,
        job: SearchJob,
        session: Option<String>,
        time_left: Option<Duration>,
        report: impl FnMut(&Iteration) + Send + 'static,
    ) -> Result<pb::SearchResult, ApiError> {
        let stop = StopOnDrop(Arc::new(AtomicBool::new(false)));
        let variant = job.variant();
        let mut search = pin!(self.pool.search(job, session, Arc::clone(&stop.0), report));
        let deadline = async {
            match time_left {
                Some(left) => tokio::time::sleep(search_budget(left)).await,
                None => std::future::pending().await,
            }
        };
        let (result, reason) = tokio::select! {
            result = &mut search => (result?, StopReason::Limit),
            () = deadline => {
                stop.0.store(true, Ordering::Relaxed);
                (search.await?, StopReason::Deadline)
            }
        };
        metrics::counter!("damiera_search_nodes_total").increment(result.nodes);
        result_to_pb(variant, &result, reason)
    }
}

/// Sets the search's stop flag when the call that owns it ends, however it ends.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

#[tonic::async_trait]
impl EngineService for EngineApi {
    async fn best_move(&self, request: Request<pb::BestMoveRequest>) -> Result<Response<pb::BestMoveResponse>, Status> {
        let time_left = time_left(request.metadata());
        let job = search_job(request.get_ref().search.as_ref(), Unlimited::DefaultTime, &self.caps, &self.tablebases)?;
        let result = self.search(job, None, time_left, |_| {}).await?;
        Ok(Response::new(pb::BestMoveResponse { result: Some(result) }))
    }

    type AnalyzeStream = ReceiverStream<Result<pb::AnalyzeResponse, Status>>;

    async fn analyze(&self, request: Request<pb::AnalyzeRequest>) -> Result<Response<Self::AnalyzeStream>, Status> {
        let time_left = time_left(request.metadata());
        let request = request.get_ref();
        let unlimited = if request.infinite { Unlimited::UntilCancelled } else { Unlimited::DefaultTime };
        let job = search_job(request.search.as_ref(), unlimited, &self.caps, &self.tablebases)?;
        let session = session(&request.session)?;
        let (sender, receiver) = mpsc::channel(ANALYSIS_BUFFER);
        let engine = self.clone();
        tokio::spawn(async move {
            let iterations = sender.clone();
            let variant = job.variant();
            // Runs on a search thread: a closed channel means the caller has gone, and the
            // search's own stop flag (set when this task's future is dropped) ends it.
            let report = move |iteration: &Iteration| {
                let update = Update::Iteration(iteration_to_pb(variant, iteration));
                let _ = iterations.blocking_send(Ok(pb::AnalyzeResponse { update: Some(update) }));
            };
            let result = tokio::select! {
                result = engine.search(job, session, time_left, report) => result,
                () = sender.closed() => return,
            };
            let message =
                result.map(|result| pb::AnalyzeResponse { update: Some(Update::Result(result)) }).map_err(Status::from);
            let _ = sender.send(message).await;
        });
        Ok(Response::new(ReceiverStream::new(receiver)))
    }
}

/// The analysis session a request names: `None` for an empty key. Keys hold no control
/// characters: the server's own sessions (game reviews) have them.
fn session(key: &str) -> Result<Option<String>, ApiError> {
    if key.len() > MAX_SESSION_KEY_BYTES {
        let description = format!("a session key has at most {MAX_SESSION_KEY_BYTES} bytes; got {}", key.len());
        return Err(ApiError::invalid("session", description));
    }
    let key = printable("session", key)?;
    Ok((!key.is_empty()).then(|| key.to_owned()))
}

fn iteration_to_pb(variant: Variant, iteration: &Iteration) -> pb::SearchIteration {
    pb::SearchIteration {
        depth: iteration.depth as i32,
        selective_depth: iteration.selective_depth as i32,
        score: Some(score_to_pb(iteration.score)),
        nodes: iteration.nodes as i64,
        nodes_per_second: iteration.nps as i64,
        hash_full_permille: iteration.hashfull as i32,
        elapsed: Some(duration_to_pb(iteration.elapsed)),
        pv: moves_to_pb(variant, &iteration.pv),
        lines: lines_to_pb(variant, &iteration.lines),
    }
}

fn result_to_pb(variant: Variant, result: &SearchResult, reason: StopReason) -> Result<pb::SearchResult, ApiError> {
    let best_move = result.best_move.ok_or_else(|| ApiError::GameOver("the position has no legal move".into()))?;
    Ok(pb::SearchResult {
        best_move: Some(move_to_pb(variant, &best_move)),
        score: Some(score_to_pb(result.score)),
        depth: result.depth as i32,
        nodes: result.nodes as i64,
        elapsed: Some(duration_to_pb(result.elapsed)),
        pv: moves_to_pb(variant, &result.pv),
        lines: lines_to_pb(variant, &result.lines),
        stop_reason: reason.into(),
    })
}
