// Markdown of the catalog and one model, the regions, the market sources and the inventory.
#include "render/markdown.hpp"
#include "render/resources.hpp"

#include "render/compact.hpp"
#include "render/markdown_prices.hpp"
#include "render/markdown_text.hpp"

namespace lcg::render {

namespace {

namespace json = boost::json;
using namespace md::reading;

// What a node of eight holds, where the lesson counts otherwise, and the NVLink rack if any.
std::string node_section(json::object const& g, language l)
{
    auto const& node = md::object_at(g, "node");
    std::string out = "## " + say(l, "gpu.node") + "\n\n" +
                      say(l, "gpu.node_memory", {{"gpus", text(node, "gpus")}, {"vram", shown(l, g, "vram_gb")},
                                                  {"memory", shown(l, node, "memory_gb")}});
    if (auto const& lesson = md::object_at(node, "lesson"); !lesson.empty())
        out += " " + say(l, "gpu.node_lesson", {{"vram", shown(l, lesson, "vram_gb")},
                                                {"memory", shown(l, lesson, "memory_gb")},
                                                {"why", escape(text(lesson, "why"))}});
    out += "\n\n";
    if (auto const& rack = md::object_at(g, "rack"); !rack.empty())
        out += say(l, "gpu.rack", {{"name", escape(text(rack, "name"))}, {"gpus", text(rack, "gpus")},
                                   {"cpus", text(rack, "cpus")}, {"memory", shown(l, rack, "memory_gb")},
                                   {"domain", shown(l, rack, "nvlink_domain_gbs")}, {"note", escape(text(rack, "note"))}}) +
               "\n\n";
    return out;
}

}

std::string catalog_markdown(json::object const& c, links const& to)
{
    auto const l = to.lang;
    std::string out = "# " + say(l, "catalog.title") + "\n\n";
    if (is_compact(c))
        return out + say(l, "catalog.models", {{"count", text(c, "count")}}) + "\n\n" + compact_markdown(c);
    out += say(l, "catalog.models", {{"count", text(c, "count")}});
    if (auto const& f = md::object_at(c, "filters"); !f.empty()) {
        std::string filters;
        for (auto const& [key, value] : f) {
            filters += filters.empty() ? "" : ", ";
            filters += escape(key) + " = " + escape(text(value));
        }
        out += " " + say(l, "catalog.matching", {{"filters", filters},
                                                 {"link", md::link(say(l, "catalog.whole"), to(path_of(resource::gpus)))}});
    }
    out += ".";
    if (c.contains("prices_week"))
        out += " " + say(l, "catalog.prices_from", {{"week", md::link(text(c, "prices_week"), to(path_of(resource::prices)))}});
    out += " " + say(l, "catalog.power_score") + " " + say(l, "unconfirmed") + "\n\n";
    md::table t{say(l, "col.gpu"), say(l, "col.vendor"), say(l, "col.architecture"), ">" + say(l, "col.vram_gb"),
                ">" + say(l, "col.bandwidth"), ">" + say(l, "col.fp16"), ">PowerScore", "NVLink", "MIG",
                ">" + say(l, "col.max_gpus"), ">" + say(l, "col.on_demand_rate")};
    for (auto const& v : md::array_at(c, "gpus")) {
        auto const& g = v.get_object();
        auto const& prices = md::object_at(g, "prices");
        std::string od = prices.contains("on_demand") ? shown(l, prices, "on_demand") : "—";
        t.row({md::gpu_link(g, to, "id"), escape(text(g, "vendor")), escape(text(g, "architecture")), shown(l, g, "vram_gb"),
               shown(l, g, "memory_bandwidth_gbs"), md::figure(l, at(g, "fp16_dense_tflops")), md::figure(l, at(g, "power_score")),
               shown(l, md::object_at(g, "interconnect"), "nvlink"), shown(l, md::object_at(g, "mig"), "supported"),
               text(md::object_at(g, "instance_limits"), "max_gpus"), od});
    }
    out += t.str();
    return out;
}

std::string gpu_markdown(json::object const& g, links const& to)
{
    auto const l = to.lang;
    std::string const id = text(g, "id");
    std::string out = "# " + escape(text(g, "name")) + "\n\n";
    out += say(l, "gpu.summary", {{"vendor", escape(text(g, "vendor"))},
                                  {"architecture", escape(text(g, "architecture"))},
                                  {"form_factor", escape(text(g, "form_factor"))},
                                  {"vram", shown(l, g, "vram_gb")},
                                  {"memory", escape(text(g, "memory_type"))},
                                  {"id", md::code(id)}}) + "\n\n";

    out += "## " + say(l, "gpu.prices") + "\n\n";
    if (auto const& p = md::object_at(g, "prices"); p.empty()) {
        out += say(l, "gpu.no_sheet") + "\n\n";
    } else if (at(p, "available").is_bool() && at(p, "available").get_bool()) {
        out += md::rates_table(p, l) + "\n" +
               say(l, "gpu.median", {{"median", md::amounts(to, id, "")(p, "median")},
                                     {"count", shown(l, p, "observations")},
                                     {"max", text(md::object_at(g, "instance_limits"), "max_gpus")}}) + " " +
               md::link(say(l, "gpu.this_week"), to(path_of(resource::price, id))) + ".\n\n";
    } else {
        out += say(l, "gpu.not_priced", {{"reason", md::unpriced_reason(l, p)}}) + "\n\n";
    }
    if (auto const& p = md::object_at(g, "prices"); md::has_market(p))
        out += md::market_section(p, md::amounts(to, id, "")) + "\n";

    out += "## " + say(l, "gpu.specifications") + "\n\n";
    auto const& tflops = md::object_at(g, "fp16_dense_tflops");
    auto const& score = at(g, "power_score");
    auto const& link = md::object_at(g, "interconnect");
    md::table spec{say(l, "col.figure"), say(l, "col.value")};
    spec.row({"VRAM", shown(l, g, "vram_gb") + " GB " + escape(text(g, "memory_type"))});
    spec.row({say(l, "gpu.bandwidth"), shown(l, g, "memory_bandwidth_gbs") + " GB/s"});
    spec.row({say(l, "gpu.fp16"), md::figure(l, tflops) + " TFLOPS" + say(l, "colon") + escape(text(tflops, "convention"))});
    spec.row({"PowerScore", md::figure(l, score) + (score.is_object() ? " (" + escape(text(score.get_object(), "reference")) + ")" : "")});
    spec.row({say(l, "gpu.fp8"), md::figure(l, at(g, "fp8_dense_tflops")) + " TFLOPS"});
    auto const& precisions = md::object_at(g, "precisions");
    spec.row({say(l, "gpu.native_precisions"),
              md::list(md::array_at(precisions, "native")) + " (" + escape(text(precisions, "source")) + ")" +
                  (at(precisions, "caveat").is_string() ? say(l, "semicolon") + " " + escape(text(precisions, "caveat")) : "")});
    spec.row({"TDP", md::figure(l, at(g, "tdp_w")) + " W"});
    spec.row({say(l, "gpu.interconnect"), at(link, "type").is_null()
                                              ? say(l, "gpu.pcie_only")
                                              : escape(text(link, "type")) + ", " + md::figure(l, at(link, "bandwidth_gbs")) +
                                                    " GB/s"});
    out += spec.str();
    out += "\n" + say(l, "unconfirmed") + " " + say(l, "gpu.source", {{"source", escape(text(g, "source"))}}) + "\n\n";

    auto const& mig = md::object_at(g, "mig");
    out += "## MIG\n\n";
    if (at(mig, "supported").is_bool() && at(mig, "supported").get_bool()) {
        out += say(l, "gpu.mig_up_to", {{"count", text(mig, "max_instances")}}) + "\n\n";
        md::table t{say(l, "col.profile"),        ">" + say(l, "col.memory_gb"),    ">" + say(l, "col.memory_fraction"),
                    ">" + say(l, "col.compute_fraction"), ">" + say(l, "col.sms"), ">FP16 TFLOPS", ">FP8 TFLOPS",
                    ">" + say(l, "col.max_instances")};
        for (auto const& v : md::array_at(mig, "profiles")) {
            auto const& p = v.get_object();
            t.row({md::code(text(p, "name")), shown(l, p, "memory_gb"), text(p, "memory_fraction"),
                   text(p, "compute_fraction"), text(p, "sms"), md::figure(l, at(p, "fp16_dense_tflops")),
                   md::figure(l, at(p, "fp8_dense_tflops")), text(p, "max_instances")});
        }
        out += t.str() + "\n" + escape(text(mig, "note")) + ".";
        if (auto const& split = md::object_at(mig, "even_split"); !split.empty())
            out += " " + say(l, "gpu.mig_even_split", {{"sms", text(split, "sms")},
                                                       {"slices", text(split, "slices")},
                                                       {"per_slice", text(split, "sms_per_slice")},
                                                       {"idle", text(split, "idle_sms")}});
        out += "\n\n";
    } else {
        out += say(l, "gpu.mig_unsupported") + "\n\n";
    }

    out += node_section(g, l);

    auto const& limits = md::object_at(g, "instance_limits");
    out += "## " + say(l, "gpu.limits") + "\n\n";
    out += "- " + say(l, "gpu.gpus_per_instance", {{"max", text(limits, "max_gpus")}}) + "\n";
    out += "- " + say(l, "gpu.per_instance", {{"vcpus", shown(l, limits, "max_vcpus")},
                                              {"memory", shown(l, limits, "max_memory_gib")}}) + "\n";
    out += "- " + say(l, "gpu.cpu_generations", {{"list", md::list(md::array_at(limits, "cpu_generations"))}}) + "\n";
    for (auto const& [region, gens] : md::object_at(limits, "extra_cpu_generations_by_region"))
        out += "- " + say(l, "gpu.also_in", {{"region", md::code(region)}, {"list", md::list(gens.as_array())}}) + "\n";
    // An example at the model's limits, which the check accepts.
    auto const& generations = md::array_at(limits, "cpu_generations");
    std::string const example = "?gpu=" + id + "&gpus=" + text(limits, "max_gpus") + "&vcpus=" + text(limits, "max_vcpus") +
                                "&memory_gib=" + text(limits, "max_memory_gib") + "&cpu_generation=" +
                                (generations.empty() ? std::string("v7") : text(generations.front()));
    out += "- " + say(l, "gpu.check", {{"link", md::link(say(l, "gpu.instance_check"), to("/v1/instances/check", example))}}) +
           "\n\n";

    auto const& regions = md::object_at(g, "regions");
    out += "## " + say(l, "gpu.regions") + "\n\n" +
           say(l, "gpu.offered_in", {{"count", text(regions, "count")}, {"list", md::list(md::array_at(regions, "codes"))}}) +
           " " + md::link(say(l, "gpu.all_regions"), to(path_of(resource::regions))) + " · " +
           md::link(say(l, "gpu.the_catalog"), to(path_of(resource::gpus))) + "\n";
    return out;
}

std::string regions_markdown(json::object const& r, links const& to)
{
    auto const l = to.lang;
    std::string out = "# " + say(l, "regions.title") + "\n\n";
    out += say(l, "regions.intro", {{"count", text(r, "count")},
                                    {"continents", text(r, "continents")},
                                    {"note", escape(text(r, "note"))},
                                    {"link", md::link(say(l, "regions.prices"), to(path_of(resource::prices)))}}) +
           "\n\n";
    md::table t{say(l, "col.code"), say(l, "col.city"), say(l, "col.country"), say(l, "col.continent"),
                say(l, "col.sovereign")};
    for (auto const& v : md::array_at(r, "regions")) {
        auto const& reg = v.get_object();
        t.row({md::code(text(reg, "code")), escape(text(reg, "city")), escape(text(reg, "country")),
               escape(text(reg, "continent")), shown(l, reg, "sovereign")});
    }
    out += t.str();
    return out;
}

std::string sources_markdown(json::object const& s, links const& to)
{
    auto const l = to.lang;
    std::string out = "# " + say(l, "sources.title") + "\n\n";
    out += say(l, "sources.intro", {{"count", text(s, "count")},
                                    {"version", text(s, "rules_version")},
                                    {"link", md::link(say(l, "sources.methodology"), to(path_of(resource::methodology)))}}) +
           " " + escape(text(s, "note")) + "\n\n";
    out += md::sources_table(l, md::array_at(s, "sources"));
    return out;
}

std::string inventory_markdown(json::object const& inv, links const& to)
{
    auto const l = to.lang;
    std::string out = "# " + say(l, "inventory.title") + "\n\n";
    out += say(l, "inventory.intro", {{"note", escape(text(inv, "note"))}}) + "\n\n";
    md::table t{say(l, "col.gpu"), ">" + say(l, "col.free_gpus"), ">" + say(l, "col.regions_with_stock"),
                ">" + say(l, "col.max_gpus")};
    std::string detail;
    for (auto const& v : md::array_at(inv, "gpus")) {
        auto const& g = v.get_object();
        std::string const id = text(g, "gpu");
        auto const& regions = md::array_at(g, "regions");
        t.row({md::link(id, to(path_of(resource::gpu, id))), shown(l, g, "available_gpus"), std::to_string(regions.size()),
               text(g, "max_gpus_per_instance")});
        if (regions.empty())
            continue;
        detail += "- **" + escape(id) + "**" + say(l, "colon");
        bool first = true;
        for (auto const& rv : regions) {
            auto const& reg = rv.get_object();
            detail += first ? "" : ", ";
            detail += text(reg, "region") + " " + shown(l, reg, "available_gpus");
            first = false;
        }
        detail += "\n";
    }
    out += t.str();
    if (!detail.empty())
        out += "\n## " + say(l, "inventory.by_region") + "\n\n" + detail;
    return out;
}

}
