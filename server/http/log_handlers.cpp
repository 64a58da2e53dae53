// The publication log (DESIGN §10) at the paths C2SP tlog-tiles gives it, so that stock verifiers
// find it: /v1/log/checkpoint and /v1/log/tile/…, all pre-rendered with the snapshot.
#include "server/http/handlers.hpp"
#include "server/http/response.hpp"

#include "server/tlog/tiles.hpp"

namespace lcg::http {

response handle_log_checkpoint(route_input& in)
{
    if (in.snap().log->checkpoint.empty())
        return problem(in.req, beast_http::status::not_found,
                       "the publication log has no signed checkpoint yet: nothing was published with a signing key");
    return published_document(in);
}

response handle_log(route_input& in) { return published_document(in); }

response handle_log_version(route_input& in)
{
    auto doc = published_document(in, in.captures[0]);
    if (doc.result() == beast_http::status::not_found)
        return problem(in.req, beast_http::status::not_found,
                       "the log has " + std::to_string(in.snap().log->entries.size()) + " entries, numbered from 0, and "
                       "an unsigned version (on a mirror, also one signed by a key it does not pin) has no "
                       "signature.txt: /v1/log lists them");
    return doc;
}

response handle_log_tile(route_input& in)
{
    auto const address = tlog::parse_tile_path(in.captures[0]);
    if (!address)
        return problem(in.req, beast_http::status::not_found,
                       "not a tile path: /v1/log/tile/<L>/<N>[.p/<W>] or /v1/log/tile/entries/<N>[.p/<W>], with N in "
                       "three-digit groups (x001/234) as C2SP tlog-tiles spells it");
    auto doc = published_document(in, tlog::tile_path(*address));
    if (doc.result() == beast_http::status::not_found)
        return problem(in.req, beast_http::status::not_found,
                       "the log does not have this tile at its current size (" +
                           std::to_string(in.snap().log->tree.size()) +
                           " entries); a partial tile of a smaller width is the prefix of the current one or "
                           "of the full tile");
    return doc;
}

}
