//! `CreateGame` and `ImportGame` read: the variant, the options, the start position or the PDN,
//! and the seats, checked; the host makes the game.

use damiera_engine::pdn::{self, PdnGame};
use damiera_engine::{Game, GameError, GameOptions, Variant};

use crate::api::convert::clock::time_control_from_pb;
use crate::api::convert::games::{first_mover_from_pb, seat_from_pb};
use crate::api::convert::{bounded, position, request_id, variant};
use crate::api::ApiError;
use crate::games::record::FirstMoverChoice;
use crate::games::{Host, NewGame, PlayOptions};
use crate::proto as pb;
use crate::search::Caps;
use crate::tenants::TenantId;

/// The longest FEN a game may start from (a full Triestina board is some 160 characters).
const MAX_FEN: usize = 1024;

/// `CreateGame` for `tenant`.
pub async fn new_game(
    host: &Host,
    tenant: &TenantId,
    caps: &Caps,
    request: &pb::CreateGameRequest,
) -> Result<NewGame, ApiError> {
    let variant = variant("variant", request.variant)?;
    let choice = first_mover_from_pb(request.options.as_ref())?;
    let forfeit = request.options.as_ref().is_some_and(|o| o.forfeit_on_capture_fault);
    let game = if request.fen.trim().is_empty() {
        Game::with_options(variant, GameOptions { first_mover: choice.into(), forfeit_on_capture_fault: forfeit })
    } else {
        if choice != FirstMoverChoice::White {
            return Err(ApiError::invalid(
                "options.first_mover",
                "a set-up position says who moves first: leave this unset",
            ));
        }
        Game::setup(position(variant, "fen", bounded("fen", &request.fen, MAX_FEN)?)?, forfeit)
    }
    .map_err(options_error)?;
    if game.outcome().is_over() {
        return Err(ApiError::invalid("fen", format!("the game would be over before it starts: {}", game.outcome())));
    }
    let seats = [
        seat_from_pb("white", request.white.as_ref(), "", caps)?,
        seat_from_pb("black", request.black.as_ref(), "", caps)?,
    ];
    let play = play_options(request.options.as_ref())?;
    let request_id = request_id("request_id", &request.request_id)?;
    Ok(crate::games::new_game(host, tenant, &game, choice, seats, play, request_id.as_deref()).await?)
}

/// `ImportGame` for `tenant`.
pub async fn import_game(
    host: &Host,
    tenant: &TenantId,
    caps: &Caps,
    request: &pb::ImportGameRequest,
    max_pdn_bytes: usize,
) -> Result<NewGame, ApiError> {
    let record = read_pdn(&request.pdn, request.variant, max_pdn_bytes)?;
    let tag = |name| record.tag(name).filter(|v| *v != "?").unwrap_or("");
    let seats = [
        seat_from_pb("white", request.white.as_ref(), tag("White"), caps)?,
        seat_from_pb("black", request.black.as_ref(), tag("Black"), caps)?,
    ];
    let play = play_options(request.options.as_ref())?;
    let request_id = request_id("request_id", &request.request_id)?;
    Ok(crate::games::import_game(host, tenant, &record, seats, play, request_id.as_deref()).await?)
}

/// The clock and takebacks of a request's options.
fn play_options(options: Option<&pb::GameOptions>) -> Result<PlayOptions, ApiError> {
    Ok(PlayOptions {
        time_control: time_control_from_pb(options.and_then(|o| o.time_control.as_ref()))?,
        takebacks: options.is_some_and(|o| o.takebacks),
    })
}

/// The one game of PDN `text` (field `pdn`), its variant `variant` if its tags do not say (0:
/// Italian), refused when longer than `max_pdn_bytes`.
pub fn read_pdn(text: &str, variant: i32, max_pdn_bytes: usize) -> Result<PdnGame, ApiError> {
    if text.len() > max_pdn_bytes {
        return Err(ApiError::over_limit("pdn", format!("{} bytes", text.len()), format!("{max_pdn_bytes} bytes")));
    }
    let default_variant = if variant == 0 { Variant::Italian } else { self::variant("variant", variant)? };
    let mut games = pdn::read_games(text, default_variant).map_err(|e| ApiError::invalid("pdn", e.to_string()))?;
    if games.len() != 1 {
        return Err(ApiError::invalid("pdn", format!("give exactly one game; the text holds {}", games.len())));
    }
    Ok(games.remove(0))
}

/// The rules refused the options: an option another variant has, say, which the engine names.
fn options_error(error: GameError) -> ApiError {
    match error {
        GameError::TurkishOnly { option, .. } => ApiError::invalid(format!("options.{option}"), error.to_string()),
        error => ApiError::invalid("options", error.to_string()),
    }
}
