// Operations: Prometheus metrics.
#include "server/http/handlers.hpp"

#include "server/ops/metrics.hpp"

#include <sstream>

namespace lcg::http {

namespace {

// The archive of the sheets' inputs: its cache and its reads, in the same text format.
std::string archive_metrics(archive::archive::figures const& f)
{
    struct sample {
        std::string_view name, type, help;
        std::uint64_t value;
    };
    sample const samples[] = {
        {"lowcostgpu_archive_cache_bytes", "gauge", "Bytes of the sheets' inputs kept in the archive's cache.",
         f.cached_bytes},
        {"lowcostgpu_archive_cached_items", "gauge",
         "Chunks, rendered parts, layouts and pages of the sheets' inputs in the archive's cache.", f.cached_items},
        {"lowcostgpu_archive_cache_hits_total", "counter", "Requests for a sheet's inputs answered from the cache.",
         f.hits},
        {"lowcostgpu_archive_cache_misses_total", "counter", "Requests for a sheet's inputs not in the cache.",
         f.misses},
        {"lowcostgpu_archive_reads_total", "counter",
         "Reads of a sheet's inputs begun at the archive's source (each reads the week's layout).", f.reads},
        {"lowcostgpu_archive_chunk_reads_total", "counter", "Chunks of a sheet's inputs read from the archive's source.",
         f.chunk_reads},
        {"lowcostgpu_archive_failed_reads_total", "counter",
         "Reads of a sheet's inputs that failed (the requests got 503).", f.failed_reads},
        {"lowcostgpu_archive_streamed_bytes", "gauge",
         "Bytes of a sheet's inputs held by the CSV and JSON streams in flight (read ahead or being sent).",
         f.streamed_bytes},
        {"lowcostgpu_archive_refused_streams_total", "counter",
         "Streams of a sheet's inputs refused with 503 because those streams held their whole budget.",
         f.refused_streams},
    };
    std::ostringstream out;
    for (auto const& s : samples)
        ops::write_sample(out, s.name, s.type, s.help, s.value);
    return out.str();
}

}

response handle_metrics(route_input& in)
{
    if (!in.ctx.metrics)
        return problem(in.req, beast_http::status::not_found, "this server keeps no counters");
    double const age = in.ctx.snapshot ? static_cast<double>((in.ctx.now - in.ctx.snapshot->built_at).count()) : -1.0;
    auto res = base_response(in.req, beast_http::status::ok);
    res.set(beast_http::field::content_type, "text/plain; version=0.0.4; charset=utf-8");
    res.set(beast_http::field::cache_control, "no-store");
    res.body() = in.ctx.metrics->render(age) + (in.ctx.archive ? archive_metrics(in.ctx.archive->measure()) : "");
    res.prepare_payload();
    return res;
}

}
