// A seat's token on a call: MakeMove, Resign, OfferDraw, AnswerDraw and RequestMoveCount act for
// the seat whose token they carry as `authorization: Bearer <token>`.

package damiera

import (
	"context"

	"google.golang.org/grpc/metadata"
)

// AsSeat makes the calls made with the returned context act for the seat that `token` belongs to.
func AsSeat(ctx context.Context, token string) context.Context {
	return metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+token)
}
