//! `ListGames`: the caller's tenant's games newest first, filtered by variant, state and end
//! reason, a page at a time, each game in the request's view (BASIC, without its moves, unless
//! FULL is asked for); the page tokens are [`page_token`]'s.

use super::page_token;
use crate::api::convert::games::{game_in_view, view_from_pb, View};
use crate::api::convert::{non_negative, variant};
use crate::api::ApiError;
use crate::games::record::GameStateKind;
use crate::games::store::{ListFilter, PageCursor};
use crate::games::Host;
use crate::proto as pb;
use crate::tenants::TenantId;

/// Games in a page when the request does not say.
const DEFAULT_PAGE_SIZE: u32 = 50;

/// The most games in a page.
const MAX_PAGE_SIZE: u32 = 500;

/// `ListGames`: `tenant`'s games only.
pub async fn list_games(
    host: &Host,
    tenant: &TenantId,
    request: &pb::ListGamesRequest,
) -> Result<pb::ListGamesResponse, ApiError> {
    let filter = ListFilter {
        tenant: tenant.clone(),
        variant: (request.variant != 0).then(|| variant("variant", request.variant)).transpose()?,
        state: state_filter(request.state)?,
        reason: reason_filter(request)?,
    };
    let page_size = match non_negative("page_size", request.page_size)? {
        0 => DEFAULT_PAGE_SIZE,
        size => size.min(MAX_PAGE_SIZE),
    };
    let view = view_from_pb(request.view, View::Basic)?;
    let after = (!request.page_token.is_empty()).then(|| page_token::decode(tenant, request)).transpose()?;
    // One more than the page: whether it exists says if there is a next page.
    let mut stored = host.list(&filter, page_size + 1, after.as_ref()).await?;
    let more = stored.len() > page_size as usize;
    stored.truncate(page_size as usize);
    let next_page_token = match stored.last() {
        Some((last, _)) if more => page_token::encode(
            tenant,
            request,
            &PageCursor { created_at_ms: last.header.created_at_ms, id: last.header.id.clone() },
        ),
        _ => String::new(),
    };
    let games = stored.iter().map(|(game, replayed)| game_in_view(game, replayed, view)).collect();
    Ok(pb::ListGamesResponse { games, next_page_token })
}

fn state_filter(value: i32) -> Result<Option<GameStateKind>, ApiError> {
    use pb::position_status::State;
    match State::try_from(value) {
        Ok(State::Unspecified) => Ok(None),
        Ok(State::Ongoing) => Ok(Some(GameStateKind::Ongoing)),
        Ok(State::Won) => Ok(Some(GameStateKind::Won)),
        Ok(State::Drawn) => Ok(Some(GameStateKind::Drawn)),
        Ok(State::Aborted) => Ok(Some(GameStateKind::Aborted)),
        Err(_) => Err(ApiError::invalid("state", format!("no such state: {value}"))),
    }
}

/// The one end reason the request filters on (a win, draw or abort reason), by its stored name:
/// the enum value's name without its prefix, in lower case (`WIN_REASON_TIME`: `time`).
fn reason_filter(request: &pb::ListGamesRequest) -> Result<Option<String>, ApiError> {
    let given = [
        ("win_reason", request.win_reason, pb::WinReason::try_from(request.win_reason).ok().map(|r| r.as_str_name())),
        (
            "draw_reason",
            request.draw_reason,
            pb::DrawReason::try_from(request.draw_reason).ok().map(|r| r.as_str_name()),
        ),
        (
            "abort_reason",
            request.abort_reason,
            pb::AbortReason::try_from(request.abort_reason).ok().map(|r| r.as_str_name()),
        ),
    ];
    let mut chosen = None;
    for (field, value, name) in given.into_iter().filter(|(_, value, _)| *value != 0) {
        let name = name.ok_or_else(|| ApiError::invalid(field, format!("no such reason: {value}")))?;
        if chosen.is_some() {
            return Err(ApiError::invalid(field, "filter on one reason at most: a game ends for one reason"));
        }
        let (_, short) = name.split_once("_REASON_").unwrap_or(("", name));
        chosen = Some(short.to_lowercase());
    }
    Ok(chosen)
}
