// Operations: Prometheus metrics.
#include "server/http/handlers.hpp"

#include "server/ops/metrics.hpp"

namespace lcg::http {

response handle_metrics(route_input& in)
{
    double const age = in.ctx.snapshot ? static_cast<double>((in.ctx.now - in.ctx.snapshot->built_at).count()) : -1.0;
    auto res = base_response(in.req, beast_http::status::ok);
    res.set(beast_http::field::content_type, "text/plain; version=0.0.4; charset=utf-8");
    res.set(beast_http::field::cache_control, "no-store");
    res.body() = ops::metrics::instance().render(age);
    res.prepare_payload();
    return res;
}

}
