//! `RulesService`: stateless questions about positions and moves.
//!
//! Each handler reads its request through `convert`, asks the engine, and writes the answer
//! back; perft runs on the search pool and PNG rendering on the blocking pool, never on the
//! async runtime's threads.

use std::sync::Arc;
use std::time::Instant;

use damiera_engine::{perft, Position};
use tonic::{Request, Response, Status};

use super::convert::{
    duration_to_pb, move_to_pb, moves_to_pb, non_negative, parse_move, position, position_to_pb, status_to_pb, variant,
};
use super::{variants, ApiError};
use crate::proto::rules_service_server::RulesService;
use crate::proto::{self as pb, ImageFormat};
use crate::render::{self, RenderOptions};
use crate::search::{Cap, Caps, SearchPool};

/// The PNG size when the request leaves it at 0.
const DEFAULT_IMAGE_SIZE: u32 = 512;

/// The rules service, sharing the server's caps and search pool.
#[derive(Clone, Debug)]
pub struct RulesApi {
    /// Per-request limits (the perft depth).
    caps: Arc<Caps>,
    /// Where perft runs.
    pool: Arc<SearchPool>,
}

impl RulesApi {
    /// The service over the server's caps and pool.
    pub fn new(caps: Arc<Caps>, pool: Arc<SearchPool>) -> RulesApi {
        RulesApi { caps, pool }
    }
}

/// Reads the variant and FEN fields that most requests share.
fn read_position(variant_value: i32, fen: &str) -> Result<Position, ApiError> {
    position(variant("variant", variant_value)?, "fen", fen)
}

#[tonic::async_trait]
impl RulesService for RulesApi {
    async fn list_variants(
        &self,
        _request: Request<pb::ListVariantsRequest>,
    ) -> Result<Response<pb::ListVariantsResponse>, Status> {
        let variants = variants::ALL.into_iter().map(variants::describe).collect();
        Ok(Response::new(pb::ListVariantsResponse { variants }))
    }

    async fn get_start_position(
        &self,
        request: Request<pb::GetStartPositionRequest>,
    ) -> Result<Response<pb::GetStartPositionResponse>, Status> {
        let variant = variant("variant", request.get_ref().variant)?;
        Ok(Response::new(pb::GetStartPositionResponse { position: Some(position_to_pb(&Position::start(variant))) }))
    }

    async fn parse_position(
        &self,
        request: Request<pb::ParsePositionRequest>,
    ) -> Result<Response<pb::ParsePositionResponse>, Status> {
        let request = request.into_inner();
        let variant = variant("variant", request.variant)?;
        if request.fen.trim().is_empty() {
            return Err(ApiError::invalid("fen", "a FEN must be given").into());
        }
        let position = position(variant, "fen", &request.fen)?;
        Ok(Response::new(pb::ParsePositionResponse {
            position: Some(position_to_pb(&position)),
            legal_moves: moves_to_pb(variant, &position.legal_moves()),
            status: Some(status_to_pb(position.status())),
        }))
    }

    async fn list_legal_moves(
        &self,
        request: Request<pb::ListLegalMovesRequest>,
    ) -> Result<Response<pb::ListLegalMovesResponse>, Status> {
        let position = read_position(request.get_ref().variant, &request.get_ref().fen)?;
        Ok(Response::new(pb::ListLegalMovesResponse {
            moves: moves_to_pb(position.variant(), &position.legal_moves()),
            must_capture: position.must_capture(),
        }))
    }

    async fn apply_move(
        &self,
        request: Request<pb::ApplyMoveRequest>,
    ) -> Result<Response<pb::ApplyMoveResponse>, Status> {
        let request = request.into_inner();
        let before = read_position(request.variant, &request.fen)?;
        let mv = parse_move(&before, "notation", &request.notation)?;
        let after = before.play_unchecked(&mv);
        Ok(Response::new(pb::ApplyMoveResponse {
            played_move: Some(move_to_pb(before.variant(), &mv)),
            position: Some(position_to_pb(&after)),
            status: Some(status_to_pb(after.status())),
        }))
    }

    async fn perft(&self, request: Request<pb::PerftRequest>) -> Result<Response<pb::PerftResponse>, Status> {
        let request = request.into_inner();
        let position = read_position(request.variant, &request.fen)?;
        let depth = non_negative("depth", request.depth)?;
        if depth == 0 {
            return Err(ApiError::invalid("depth", "perft needs a depth of 1 or more").into());
        }
        let depth = self.caps.check(Cap::PerftDepth, depth).map_err(|over| ApiError::over_cap("", over))?;
        let divide = request.divide;
        let response = self.pool.run(1, move || count(&position, depth, divide)).await.map_err(ApiError::from)?;
        Ok(Response::new(response))
    }

    async fn render_position(
        &self,
        request: Request<pb::RenderPositionRequest>,
    ) -> Result<Response<pb::RenderPositionResponse>, Status> {
        let request = request.into_inner();
        let position = read_position(request.variant, &request.fen)?;
        let options = render_options(&position, &request)?;
        let wants = |format: ImageFormat| request.formats.is_empty() || request.formats.contains(&(format as i32));
        let (svg, text, png) = (wants(ImageFormat::Svg), wants(ImageFormat::Text), wants(ImageFormat::Png));
        let png = if png {
            tokio::task::spawn_blocking(move || render::png(&position, &options))
                .await
                .map_err(|error| ApiError::Internal(format!("rendering failed: {error}")))?
                .map_err(|error| ApiError::Internal(error.to_string()))?
        } else {
            Vec::new()
        };
        Ok(Response::new(pb::RenderPositionResponse {
            svg: if svg { render::svg(&position, &options) } else { String::new() },
            png,
            text: if text { render::text(&position, &options) } else { String::new() },
        }))
    }
}

fn count(position: &Position, depth: u32, divide: bool) -> pb::PerftResponse {
    let start = Instant::now();
    let variant = position.variant();
    let (nodes, divisions) = if divide {
        let divisions: Vec<_> = perft::divide(position, depth)
            .into_iter()
            .map(|(mv, nodes)| pb::PerftDivision { first_move: Some(move_to_pb(variant, &mv)), nodes: nodes as i64 })
            .collect();
        (divisions.iter().map(|d| d.nodes).sum(), divisions)
    } else {
        (perft::perft(position, depth) as i64, Vec::new())
    };
    pb::PerftResponse { nodes, divisions, elapsed: Some(duration_to_pb(start.elapsed())) }
}

fn render_options(position: &Position, request: &pb::RenderPositionRequest) -> Result<RenderOptions, ApiError> {
    let highlight = match request.highlight_move.trim() {
        "" => None,
        text => Some(parse_move(position, "highlight_move", text)?),
    };
    let size = match non_negative("size", request.size)? {
        0 => DEFAULT_IMAGE_SIZE,
        size => size,
    };
    if !render::SIZES.contains(&size) {
        return Err(ApiError::invalid("size", render::RenderError::Size(size).to_string()));
    }
    Ok(RenderOptions { flipped: request.flipped, labels: request.labels, highlight, size })
}
