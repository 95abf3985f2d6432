//! `GameService`: the gRPC face of the hosted games ([`Host`]). Handlers read the request (the
//! caller's tenant from the guard, its seat from its token), let the host or the hub do the work
//! for that tenant only, and write the answer.

mod create;
mod listing;
mod page_token;
mod quota;
mod review;

use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, UNIX_EPOCH};

use damiera_engine::pdn::{self, Termination};
use tokio_stream::{Stream, StreamExt};
use tonic::metadata::MetadataMap;
use tonic::{Request, Response, Status};

use super::convert::games::{
    game_id, game_in_view, game_name, game_to_pb, played_to_pb, seat_label, view_from_pb, watch_event_to_pb, View,
};
use super::convert::{bounded, entity_tag, non_negative, request_id};
use super::{caller, ApiError};
use crate::games::clock::TimingPolicy;
use crate::games::record::EventKind;
use crate::games::{answer_text, Acted, Action, Actor, Expected, Host, HostError, Hub, NewGame, Said, WatchPace};
use crate::proto::game_service_server::GameService;
use crate::proto::{self as pb};
use crate::search::{Caps, SearchPool, Tablebases};
use quota::WatchQuota;
use review::{ReviewStream, Reviewer};

/// The longest move text: a Triestina king's longest capture is far shorter.
const MAX_NOTATION: usize = 256;

/// The longest `etag`: a quoted version number and digest are far shorter.
const MAX_ETAG: usize = 64;

/// Settings of the game service.
#[derive(Clone, Debug)]
pub struct GameSettings {
    /// The largest PDN text ImportGame takes, in bytes.
    pub max_pdn_bytes: usize,
    /// How long a quiet WatchGame stream waits before a keep-alive message.
    pub keep_alive: Duration,
    /// The waiting times new games get (first move, abandonment).
    pub timing: TimingPolicy,
    /// How long a WatchGame stream's buffer may stay full (its client reading nothing) before the
    /// stream ends with `WATCH_TOO_SLOW`.
    pub watch_patience: Duration,
    /// The most WatchGame streams one client address may have open; 0: no limit.
    pub max_watches_per_client: usize,
    /// How long games stay stored once over before they are deleted; `None`: for good.
    pub retention: Option<Duration>,
}

/// The game service.
#[derive(Clone, Debug)]
pub struct GameApi {
    /// Games and their store.
    host: Arc<Host>,
    /// Live watchers.
    hub: Arc<Hub>,
    /// Engine seat limits are checked against these.
    caps: Arc<Caps>,
    /// Sizes and intervals.
    settings: GameSettings,
    /// Reviews games on the search pool.
    reviewer: Reviewer,
    /// Open watches per client address.
    watch_quota: WatchQuota,
}

impl GameApi {
    /// The service over the host and hub; reviews search on `pool`, probing `tablebases`.
    pub fn new(
        host: Arc<Host>,
        hub: Arc<Hub>,
        caps: Arc<Caps>,
        settings: GameSettings,
        pool: Arc<SearchPool>,
        tablebases: Tablebases,
    ) -> GameApi {
        let reviewer = Reviewer {
            host: Arc::clone(&host),
            caps: Arc::clone(&caps),
            pool,
            tablebases,
            max_pdn_bytes: settings.max_pdn_bytes,
        };
        let watch_quota = WatchQuota::new(settings.max_watches_per_client);
        GameApi { host, hub, caps, settings, reviewer, watch_quota }
    }

    /// Acts for the caller's seat in the game `name`, if it is the caller's tenant's.
    async fn act<T>(&self, request: Request<T>, name: impl Fn(&T) -> &str, action: Action) -> Result<Acted, ApiError> {
        let id = game_id(name(request.get_ref()))?;
        let token = bearer_token(request.metadata())?;
        let tenant = caller(&request).tenant;
        Ok(self.host.act(&id, Actor::Seat { tenant: &tenant, token }, &action).await?)
    }
}

/// `CreateGame` and `ImportGame`'s answer: the game, its seats' tokens, and whether they were
/// already issued (a retry).
fn made(new: NewGame) -> (Option<pb::Game>, String, String, bool) {
    (Some(game_to_pb(&new.stored, &new.replayed)), new.white_token, new.black_token, new.tokens_already_issued)
}

/// The seat token a call carries, as `authorization: Bearer <token>`.
fn bearer_token(metadata: &MetadataMap) -> Result<&str, ApiError> {
    let value = metadata.get("authorization").ok_or(ApiError::MissingToken)?;
    let text = value.to_str().map_err(|_| ApiError::MissingToken)?;
    // The scheme's name is case-insensitive (RFC 7235).
    let (scheme, token) = text.split_once(' ').ok_or(ApiError::MissingToken)?;
    if !scheme.eq_ignore_ascii_case("bearer") {
        return Err(ApiError::MissingToken);
    }
    Ok(token.trim())
}

/// An action that insists on a state (`expected_ply`, `etag`) and may carry a request id.
fn checked_action(
    kind: EventKind,
    text: &str,
    expected_ply: Option<i32>,
    etag: &str,
    id: &str,
) -> Result<Action, ApiError> {
    let etag = entity_tag("etag", bounded("etag", etag, MAX_ETAG)?)?;
    let expected_ply = expected_ply.map(|ply| non_negative("expected_ply", ply)).transpose()?;
    Ok(Action {
        kind,
        said: Said::Text(text.to_string()),
        expected: Expected { ply: expected_ply, etag },
        request_id: request_id("request_id", id)?,
    })
}

/// An action's `view`, checked before it acts; unspecified: [`View::Basic`].
fn action_view(view: i32) -> Result<View, ApiError> {
    view_from_pb(view, View::Basic)
}

/// The game as an action left it, in `view`.
fn game_of(acted: &Acted, view: View) -> Option<pb::Game> {
    Some(game_in_view(&acted.stored, &acted.replayed, view))
}

type WatchStream = Pin<Box<dyn Stream<Item = Result<pb::WatchGameResponse, Status>> + Send>>;

#[tonic::async_trait]
impl GameService for GameApi {
    async fn create_game(
        &self,
        request: Request<pb::CreateGameRequest>,
    ) -> Result<Response<pb::CreateGameResponse>, Status> {
        let new = create::new_game(&self.host, &caller(&request).tenant, &self.caps, request.get_ref()).await?;
        let (game, white_token, black_token, tokens_already_issued) = made(new);
        Ok(Response::new(pb::CreateGameResponse { game, white_token, black_token, tokens_already_issued }))
    }

    async fn get_game(&self, request: Request<pb::GetGameRequest>) -> Result<Response<pb::GetGameResponse>, Status> {
        let id = game_id(&request.get_ref().name)?;
        let view = view_from_pb(request.get_ref().view, View::Full)?;
        let (stored, replayed) = self.host.load_as(&caller(&request).tenant, &id).await.map_err(ApiError::from)?;
        Ok(Response::new(pb::GetGameResponse { game: Some(game_in_view(&stored, &replayed, view)) }))
    }

    async fn list_games(
        &self,
        request: Request<pb::ListGamesRequest>,
    ) -> Result<Response<pb::ListGamesResponse>, Status> {
        Ok(Response::new(listing::list_games(&self.host, &caller(&request).tenant, request.get_ref()).await?))
    }

    async fn make_move(&self, request: Request<pb::MakeMoveRequest>) -> Result<Response<pb::MakeMoveResponse>, Status> {
        let body = request.get_ref();
        let notation = bounded("notation", &body.notation, MAX_NOTATION)?;
        let action = checked_action(EventKind::Move, notation, body.expected_ply, &body.etag, &body.request_id)?;
        let view = action_view(body.view)?;
        let acted = self.act(request, |r| &r.name, action).await?;
        Ok(Response::new(pb::MakeMoveResponse { played_move: played_to_pb(&acted), game: game_of(&acted, view) }))
    }

    async fn resign(&self, request: Request<pb::ResignRequest>) -> Result<Response<pb::ResignResponse>, Status> {
        let body = request.get_ref();
        let action = checked_action(EventKind::Resign, "", body.expected_ply, &body.etag, &body.request_id)?;
        let view = action_view(body.view)?;
        let acted = self.act(request, |r| &r.name, action).await?;
        Ok(Response::new(pb::ResignResponse { game: game_of(&acted, view) }))
    }

    async fn offer_draw(
        &self,
        request: Request<pb::OfferDrawRequest>,
    ) -> Result<Response<pb::OfferDrawResponse>, Status> {
        let body = request.get_ref();
        let action = checked_action(EventKind::OfferDraw, "", body.expected_ply, &body.etag, &body.request_id)?;
        let view = action_view(body.view)?;
        let acted = self.act(request, |r| &r.name, action).await?;
        Ok(Response::new(pb::OfferDrawResponse { game: game_of(&acted, view) }))
    }

    async fn answer_draw(
        &self,
        request: Request<pb::AnswerDrawRequest>,
    ) -> Result<Response<pb::AnswerDrawResponse>, Status> {
        let body = request.get_ref();
        let answer = answer_text(body.accept);
        let action = checked_action(EventKind::AnswerDraw, answer, body.expected_ply, &body.etag, &body.request_id)?;
        let view = action_view(body.view)?;
        let acted = self.act(request, |r| &r.name, action).await?;
        Ok(Response::new(pb::AnswerDrawResponse { game: game_of(&acted, view) }))
    }

    async fn abort_game(
        &self,
        request: Request<pb::AbortGameRequest>,
    ) -> Result<Response<pb::AbortGameResponse>, Status> {
        let body = request.get_ref();
        let reason = crate::games::AbortReason::Seat.name();
        let action = checked_action(EventKind::Abort, reason, body.expected_ply, &body.etag, &body.request_id)?;
        let view = action_view(body.view)?;
        let acted = self.act(request, |r| &r.name, action).await?;
        Ok(Response::new(pb::AbortGameResponse { game: game_of(&acted, view) }))
    }

    async fn offer_takeback(
        &self,
        request: Request<pb::OfferTakebackRequest>,
    ) -> Result<Response<pb::OfferTakebackResponse>, Status> {
        let body = request.get_ref();
        let action = checked_action(EventKind::OfferTakeback, "", body.expected_ply, &body.etag, &body.request_id)?;
        let view = action_view(body.view)?;
        let acted = self.act(request, |r| &r.name, action).await?;
        Ok(Response::new(pb::OfferTakebackResponse { game: game_of(&acted, view) }))
    }

    async fn answer_takeback(
        &self,
        request: Request<pb::AnswerTakebackRequest>,
    ) -> Result<Response<pb::AnswerTakebackResponse>, Status> {
        let body = request.get_ref();
        let answer = answer_text(body.accept);
        let action =
            checked_action(EventKind::AnswerTakeback, answer, body.expected_ply, &body.etag, &body.request_id)?;
        let view = action_view(body.view)?;
        let acted = self.act(request, |r| &r.name, action).await?;
        Ok(Response::new(pb::AnswerTakebackResponse { game: game_of(&acted, view) }))
    }

    async fn request_move_count(
        &self,
        request: Request<pb::RequestMoveCountRequest>,
    ) -> Result<Response<pb::RequestMoveCountResponse>, Status> {
        let body = request.get_ref();
        let action = checked_action(EventKind::RequestMoveCount, "", body.expected_ply, &body.etag, &body.request_id)?;
        let view = action_view(body.view)?;
        let acted = self.act(request, |r| &r.name, action).await?;
        Ok(Response::new(pb::RequestMoveCountResponse { game: game_of(&acted, view) }))
    }

    async fn delete_game(
        &self,
        request: Request<pb::DeleteGameRequest>,
    ) -> Result<Response<pb::DeleteGameResponse>, Status> {
        let body = request.get_ref();
        let id = game_id(&body.name)?;
        let expected = Expected { ply: None, etag: entity_tag("etag", bounded("etag", &body.etag, MAX_ETAG)?)? };
        let token = bearer_token(request.metadata())?;
        match self.host.delete(&caller(&request).tenant, &id, token, &expected).await {
            Ok(()) => Ok(Response::new(pb::DeleteGameResponse {})),
            Err(HostError::NotFound(_)) if body.allow_missing => Ok(Response::new(pb::DeleteGameResponse {})),
            Err(error) => Err(ApiError::from(error).into()),
        }
    }

    type WatchGameStream = WatchStream;

    async fn watch_game(&self, request: Request<pb::WatchGameRequest>) -> Result<Response<WatchStream>, Status> {
        let caller = caller(&request);
        let ticket = self.watch_quota.take(caller.address)?;
        let request = request.into_inner();
        let id = game_id(&request.name)?;
        let from_ply = request.from_ply.map(|ply| non_negative("from_ply", ply)).transpose()?;
        let pace = WatchPace { keep_alive: self.settings.keep_alive, patience: self.settings.watch_patience };
        let stream = self.hub.watch(&caller.tenant, &id, from_ply, pace).await.map_err(ApiError::from)?;
        // The end at shutdown or of a watcher too slow is the last item: an error, after which the
        // stream stops. The ticket is given back when the stream is dropped.
        let messages = stream.map(move |event| {
            let _open = &ticket;
            watch_event_to_pb(event).map_err(Status::from)
        });
        Ok(Response::new(Box::pin(messages)))
    }

    async fn export_pdn(
        &self,
        request: Request<pb::ExportPdnRequest>,
    ) -> Result<Response<pb::ExportPdnResponse>, Status> {
        let id = game_id(&request.get_ref().name)?;
        let (stored, replayed) = self.host.load_as(&caller(&request).tenant, &id).await.map_err(ApiError::from)?;
        let header = &stored.header;
        let mut tags = vec![
            ("Event", "Damiera game".to_string()),
            ("Site", game_name(&id)),
            ("Date", pdn_date(header.created_at_ms)),
            ("White", seat_label(header, damiera_engine::Color::White)),
            ("Black", seat_label(header, damiera_engine::Color::Black)),
            ("TimeControl", header.timing.control.pdn_tag()),
        ];
        if let Some(reason) = replayed.aborted {
            // Aborted: no result; the reason says why.
            tags.push(("Termination", format!("aborted ({})", reason.name())));
        } else if let Some(termination) = Termination::of(replayed.game.outcome()) {
            tags.push(("Termination", termination.tag_value().to_string()));
        }
        let tags: Vec<_> = tags.into_iter().map(|(name, value)| (name.to_string(), value)).collect();
        let clocks: Vec<String> =
            replayed.move_clocks_ms.iter().map(|left| left.map(pdn_clock).unwrap_or_default()).collect();
        Ok(Response::new(pb::ExportPdnResponse { pdn: pdn::write_annotated_game(&replayed.game, &tags, &clocks) }))
    }

    async fn import_game(
        &self,
        request: Request<pb::ImportGameRequest>,
    ) -> Result<Response<pb::ImportGameResponse>, Status> {
        let tenant = caller(&request).tenant;
        let new = create::import_game(&self.host, &tenant, &self.caps, request.get_ref(), self.settings.max_pdn_bytes)
            .await?;
        let (game, white_token, black_token, tokens_already_issued) = made(new);
        Ok(Response::new(pb::ImportGameResponse { game, white_token, black_token, tokens_already_issued }))
    }

    type ReviewGameStream = ReviewStream;

    async fn review_game(
        &self,
        request: Request<pb::ReviewGameRequest>,
    ) -> Result<Response<Self::ReviewGameStream>, Status> {
        Ok(Response::new(self.reviewer.start(&caller(&request).tenant, request.get_ref()).await?))
    }
}

/// A `%clock` comment: the mover's time left after its move, `[%clock 0:02:58.3]`.
fn pdn_clock(left_ms: i64) -> String {
    let tenths = left_ms.max(0) / 100;
    let (hours, minutes, seconds) = (tenths / 36_000, tenths / 600 % 60, tenths / 10 % 60);
    format!("[%clock {hours}:{minutes:02}:{seconds:02}.{}]", tenths % 10)
}

/// A PDN date, `YYYY.MM.DD`.
fn pdn_date(ms: i64) -> String {
    let time = UNIX_EPOCH + Duration::from_millis(ms.max(0) as u64);
    let text = humantime::format_rfc3339_seconds(time).to_string();
    text.get(..10).map_or_else(|| "????.??.??".to_string(), |date| date.replace('-', "."))
}
