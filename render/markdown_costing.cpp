// Markdown of the costing tools: estimate, sizing, comparison, instance check, cheapest.
#include "render/markdown.hpp"
#include "render/resources.hpp"

#include "render/markdown_text.hpp"

namespace lcg::render {

namespace {

namespace json = boost::json;
using namespace md::reading;

// A tier as a table row or a list item names it ("On-demand", "À la demande").
std::string tier_name(language l, std::string_view tier)
{
    if (tier == "on_demand" || tier == "spot" || tier == "reserved")
        return say(l, "tier_title." + std::string(tier));
    return std::string(tier);
}

std::string item_name(language l, std::string_view item)
{
    if (item == "gpu_time" || item == "storage" || item == "egress" || item == "ingress")
        return say(l, "item." + std::string(item));
    return std::string(item);
}

// A line's unit (an id of the JSON: "GPU-hour") as the language writes it.
std::string unit_name(language l, std::string_view unit)
{
    if (unit == "GPU-hour" || unit == "GB-month" || unit == "GB")
        return say(l, "unit." + std::string(unit));
    return escape(std::string(unit));
}

std::string gpu_link(std::string const& id, std::string const& name, links const& to)
{
    return md::link(name.empty() ? id : name, to(path_of(resource::gpu, id)));
}

std::string ids(json::array const& list, links const& to)
{
    std::string out;
    for (auto const& v : list) {
        if (!out.empty())
            out += ", ";
        out += gpu_link(text(v), "", to);
    }
    return out.empty() ? "—" : out;
}

// A display amount of the JSON ("$12.35", rounded to the cent) as the language writes it.
std::string displayed(language l, std::string const& amount)
{
    return amount.starts_with('$') ? dollars(l, std::string_view(amount).substr(1)) : amount;
}

std::string week_line(json::object const& o, links const& to)
{
    auto const& week = at(o, "week");
    if (!week.is_string())
        return say(to.lang, "gpu.no_sheet");
    return say(to.lang, "costing.prices_of", {{"week", md::link(text(week), to(path_of(resource::prices)))}});
}

}

// What a configuration adds in prose: what emulating the precision costs, and for several
// instances, the fabric between them with the lesson's 10 GB over it and over NVLink.
std::string configuration_notes(json::object const& o, language l)
{
    std::string out;
    if (auto const& p = md::object_at(o, "precision"); !p.empty() && at(p, "note").is_string())
        out += escape(text(p, "note"));
    auto const& fabric = md::object_at(o, "fabric");
    if (fabric.empty())
        return out;
    auto const& transfer = md::object_at(fabric, "transfer");
    std::string between, reference;
    for (auto const& v : md::array_at(transfer, "links")) {
        auto const& link = v.as_object();
        if (text(link, "id") == text(fabric, "between_nodes"))
            between = say(l, "sizing.fabric_link", {{"name", escape(text(link, "name"))},
                                                    {"rate", shown(l, link, "rate") + " " + text(link, "unit")},
                                                    {"gbps", shown(l, link, "gigabytes_per_second")},
                                                    {"ms", shown(l, link, "milliseconds")},
                                                    {"slower", shown(l, link, "slower_than_reference")},
                                                    {"gb", shown(l, transfer, "gb")}});
        if (text(link, "id") == text(transfer, "reference"))
            reference = shown(l, link, "milliseconds");
    }
    return out + (out.empty() ? "" : say(l, "semicolon") + " ") + escape(text(fabric, "note")) + say(l, "colon") +
           between + ", " + say(l, "sizing.fabric_reference", {{"ms", reference}}) + ".";
}

std::string estimate_markdown(json::object const& e, links const& to)
{
    auto const l = to.lang;
    std::string const tier = text(e, "tier");
    auto const& duration = md::object_at(e, "duration");
    std::string out = "# " + say(l, "estimate.title", {{"gpus", text(e, "gpus")},
                                                       {"model", escape(text(e, "name"))},
                                                       {"tier", tier_name(l, tier)},
                                                       {"hours", shown(l, duration, "hours")}}) + "\n\n";
    out += week_line(e, to) + " " + say(l, "estimate.billing") + "\n\n";
    if (text(e, "instances") != "1")
        out += say(l, "estimate.instances", {{"instances", text(e, "instances")}, {"max", text(e, "max_gpus_per_instance")}}) +
               "\n\n";
    md::table lines{say(l, "col.item"), ">" + say(l, "col.quantity"), say(l, "col.unit"), ">" + say(l, "col.rate_usd"),
                    say(l, "col.rate_unit"), ">" + say(l, "col.amount_usd")};
    for (auto const& v : md::array_at(e, "lines")) {
        auto const& line = v.get_object();
        lines.row({item_name(l, text(line, "item")), shown(l, line, "quantity"), unit_name(l, text(line, "unit")),
                   shown(l, line, "unit_rate"), escape(text(line, "rate_unit")), shown(l, line, "amount")});
    }
    lines.row({"**" + say(l, "col.total") + "**", "", "", "", "", "**" + shown(l, e, "total") + "**"});
    out += lines.str();
    out += "\n**" + escape(text(e, "headline")) + "**.\n\n" +
           say(l, "estimate.total", {{"total", displayed(l, text(e, "total_display"))},
                                     {"effective", shown(l, e, "effective_per_gpu_hour")}}) + "\n\n";

    out += "## " + say(l, "estimate.every_tier") + "\n\n";
    auto const& throughput = at(e, "throughput");
    bool const tokens = throughput.is_object() && throughput.get_object().contains("tokens_per_second");
    bool const images = throughput.is_object() && !tokens;
    bool const per_work = tokens || images;
    std::string const work_column = ">" + say(l, tokens ? "col.per_million_tokens" : "col.per_image");
    std::string const tier_column = say(l, "col.tier"), rate_column = ">" + say(l, "col.usd_per_gpu_hour"),
                      time_column = ">" + say(l, "col.gpu_time_usd"), total_column = ">" + say(l, "col.total_usd");
    // The last column only when a throughput was given (a row's extra cell is dropped otherwise).
    md::table tiers = per_work ? md::table{tier_column, rate_column, time_column, total_column, work_column}
                               : md::table{tier_column, rate_column, time_column, total_column};
    for (auto const& v : md::array_at(e, "tiers")) {
        auto const& t = v.get_object();
        std::string name = tier_name(l, text(t, "tier"));
        if (at(t, "selected").is_bool() && at(t, "selected").get_bool())
            name = say(l, "estimate.chosen", {{"tier", name}});
        tiers.row({name, shown(l, t, "per_gpu_hour"), shown(l, t, "gpu_time"), shown(l, t, "total"),
                   shown(l, t, tokens ? "cost_per_million_tokens" : "cost_per_image")});
    }
    out += tiers.str();
    if (throughput.is_object())
        out += "\n" + say(l, "estimate.throughput", {{"basis", escape(text(throughput.get_object(), "basis"))}}) + "\n";

    auto const& r = md::object_at(e, "reserved_term");
    out += "\n## " + say(l, "estimate.reserved") + "\n\n";
    out += say(l, "estimate.commitment", {{"months", text(r, "months")},
                                          {"hours", shown(l, r, "hours")},
                                          {"gpus", text(r, "gpus")},
                                          {"rate", shown(l, r, "per_gpu_hour")},
                                          {"commitment", displayed(l, text(r, "commitment_display"))},
                                          {"note", escape(text(r, "note"))}}) + "\n\n";
    out += md::link(say(l, "nav.methodology"), to(path_of(resource::methodology))) + " · " +
           md::link(say(l, "regions.prices"), to(path_of(resource::prices))) + "\n";
    return out;
}

std::string sizing_markdown(json::object const& s, links const& to)
{
    auto const l = to.lang;
    std::string out = "# " + say(l, "sizing.title", {{"params", shown(l, s, "params_b")}, {"precision", text(s, "precision")}}) +
                      "\n\n";
    out += say(l, "sizing.memory", {{"params", shown(l, s, "params_b")},
                                    {"bytes", shown(l, s, "bytes_per_param")},
                                    {"overhead", shown(l, s, "overhead_factor")},
                                    {"needed", shown(l, s, "needed_gb")}}) + " " + week_line(s, to) + " " +
           say(l, "sizing.hourly") + " " + escape(text(s, "mig_note")) + ".\n\n";
    md::table t{say(l, "col.gpu"), ">" + say(l, "col.vram_gb"), ">" + say(l, "col.gpus_needed"),
                ">" + say(l, "col.practical_gpus"), say(l, "col.smallest_mig"), ">" + say(l, "col.on_demand_hourly"),
                ">" + say(l, "col.spot_hourly"), ">" + say(l, "col.reserved_hourly"), say(l, "col.note")};
    for (auto const& v : md::array_at(s, "models")) {
        auto const& m = v.get_object();
        auto const& mig = md::object_at(m, "mig");
        auto const& hourly = at(m, "hourly");
        std::string slice = "—";
        if (at(mig, "fits").is_bool() && at(mig, "fits").get_bool())
            slice = say(l, "sizing.slice", {{"profile", md::code(text(mig, "profile"))},
                                            {"count", text(mig, "instances_per_gpu")}});
        std::string note = at(m, "note").is_string() ? escape(text(m, "note")) : "";
        if (auto const& smallest = at(m, "smallest_hourly"); smallest.is_object())
            note += " " + say(l, "sizing.smallest", {{"gpus", text(m, "gpus_needed")},
                                                     {"rate", shown(l, smallest.get_object(), "on_demand")}});
        if (auto const extra = configuration_notes(m, l); !extra.empty())
            note += (note.empty() ? "" : say(l, "semicolon") + " ") + extra;
        if (m.contains("reason"))
            note += (note.empty() ? "" : say(l, "semicolon") + " ") + md::unpriced_reason(l, m);
        auto rate = [&](char const* tier) {
            return hourly.is_object() ? shown(l, hourly.get_object(), tier) : std::string("—");
        };
        t.row({gpu_link(text(m, "gpu"), text(m, "name"), to), shown(l, m, "vram_gb"), text(m, "gpus_needed"),
               text(m, "practical_gpus"), slice, rate("on_demand"), rate("spot"), rate("reserved"), note});
    }
    out += t.str();
    out += "\n## " + say(l, "sizing.cheapest") + "\n\n";
    for (auto const& [tier, c] : md::object_at(s, "cheapest")) {
        out += "- " + tier_name(l, tier) + say(l, "colon");
        if (c.is_object())
            out += say(l, "sizing.configuration", {{"gpus", text(c.get_object(), "gpus")},
                                                   {"model", gpu_link(text(c.get_object(), "gpu"), "", to)},
                                                   {"instances", text(c.get_object(), "instances")},
                                                   {"hourly", shown(l, c.get_object(), "hourly")}}) +
                   (at(c.get_object(), "native").is_bool() && !at(c.get_object(), "native").get_bool()
                        ? " " + say(l, "sizing.emulated")
                        : std::string()) +
                   "\n";
        else
            out += say(l, "sizing.none_fits") + "\n";
    }
    out += "\n" + say(l, "sizing.formula", {{"formula", escape(text(s, "formula"))}}) + "\n";
    return out;
}

std::string comparison_markdown(json::object const& c, links const& to)
{
    auto const l = to.lang;
    std::string out = "# " + say(l, "compare.title") + "\n\n";
    out += week_line(c, to) + " " + say(l, "compare.per_gpu_hour") + "\n\n";
    md::table t{say(l, "col.gpu"), ">" + say(l, "col.vram_gb"), ">" + say(l, "col.bandwidth"), ">" + say(l, "col.fp16"),
                ">PowerScore", ">" + say(l, "rate.on_demand"), ">" + say(l, "col.spot"), ">" + say(l, "col.reserved"),
                ">" + say(l, "col.per_100_power_score"), ">" + say(l, "col.per_gb_vram")};
    for (auto const& v : md::array_at(c, "gpus")) {
        auto const& g = v.get_object();
        auto const& prices = at(g, "prices");
        auto rate = [&](char const* tier) {
            return prices.is_object() ? shown(l, prices.get_object(), tier) : std::string("—");
        };
        t.row({gpu_link(text(g, "gpu"), text(g, "name"), to), shown(l, g, "vram_gb"), shown(l, g, "memory_bandwidth_gbs"),
               md::figure(l, at(g, "fp16_dense_tflops")), md::figure(l, at(g, "power_score")), rate("on_demand"),
               rate("spot"), rate("reserved"), shown(l, g, "price_per_100_power_score"),
               shown(l, g, "price_per_gb_vram_hour")});
    }
    out += t.str();
    auto const& w = md::object_at(c, "winners");
    out += "\n## " + say(l, "compare.winners") + "\n\n";
    for (auto const& [tier, list] : md::object_at(w, "lowest_price"))
        out += "- " + say(l, "compare.lowest_price", {{"tier", say(l, "tier." + std::string(tier))}}) + say(l, "colon") +
               ids(list.as_array(), to) + "\n";
    out += "- " + say(l, "compare.most_vram") + say(l, "colon") + ids(md::array_at(w, "most_vram"), to) + "\n";
    out += "- " + say(l, "compare.most_bandwidth") + say(l, "colon") + ids(md::array_at(w, "most_bandwidth"), to) + "\n";
    out += "- " + say(l, "compare.highest_power_score") + say(l, "colon") +
           ids(md::array_at(w, "highest_power_score"), to) + "\n";
    out += "- " + say(l, "compare.lowest_per_power_score") + say(l, "colon") +
           ids(md::array_at(w, "lowest_price_per_power_score"), to) + "\n";
    out += "- " + say(l, "compare.lowest_per_gb_vram") + say(l, "colon") +
           ids(md::array_at(w, "lowest_price_per_gb_vram"), to) + "\n";
    out += "\n## " + say(l, "compare.notes") + "\n\n";
    for (auto const& [key, note] : md::object_at(c, "notes"))
        out += "- " + md::code(key) + say(l, "colon") + escape(text(note)) + ".\n";
    return out;
}

std::string instance_check_markdown(json::object const& c, links const& to)
{
    auto const l = to.lang;
    bool const ok = text(c, "status") == "ok";
    auto const& req = md::object_at(c, "requested");
    auto const& limits = md::object_at(c, "limits");
    std::string const gpu = text(c, "gpu");
    std::string out = "# " + say(l, "check.title", {{"status", ok ? say(l, "check.fits") : std::string("vm-specs-mismatch")}}) +
                      "\n\n";
    out += say(l, "check.requested", {{"gpus", text(req, "gpus")},
                                      {"model", md::link(gpu, to(path_of(resource::gpu, gpu)))},
                                      {"vcpus", text(req, "vcpus")},
                                      {"memory", shown(l, req, "memory_gib")},
                                      {"generation", md::code(text(req, "cpu_generation"))}});
    out += at(c, "region").is_string() ? " " + say(l, "check.in_region", {{"region", md::code(text(c, "region"))}})
                                       : " " + say(l, "check.any_region");
    out += say(l, "colon") + say(l, ok ? "check.within" : "check.outside") + "\n\n";
    md::table t{say(l, "col.limit"), say(l, "col.allowed"), say(l, "col.requested"), say(l, "col.status")};
    auto problem_of = [&](std::string_view limit) -> json::object const* {
        for (auto const& p : md::array_at(c, "problems"))
            if (text(p.get_object(), "limit") == limit)
                return &p.get_object();
        return nullptr;
    };
    auto row = [&](std::string_view limit, std::string label, std::string allowed, std::string requested) {
        t.row({std::move(label), std::move(allowed), std::move(requested),
               problem_of(limit) ? "**" + say(l, "check.exceeded") + "**" : "ok"});
    };
    auto up_to = [&](std::string_view key) { return say(l, "check.up_to", {{"max", shown(l, limits, key)}}); };
    row("max_gpus_per_instance", say(l, "check.gpus"), up_to("max_gpus_per_instance"), text(req, "gpus"));
    row("max_vcpus", say(l, "check.vcpus"), up_to("max_vcpus"), text(req, "vcpus"));
    row("max_memory_gib", say(l, "check.memory"), up_to("max_memory_gib"), shown(l, req, "memory_gib"));
    row("cpu_generation", say(l, "check.generation"), md::list(md::array_at(limits, "cpu_generations")),
        escape(text(req, "cpu_generation")));
    auto const& other = at(req, "other_gpu");
    row("one_gpu_model", say(l, "check.one_model"), say(l, "check.only", {{"model", md::code(gpu)}}),
        other.is_string() ? md::code(text(other)) : gpu);
    row("cpu_performance_flag", say(l, "check.performance_flag"), say(l, "check.on"),
        say(l, text(req, "cpu_performance") == "yes" ? "check.on" : "check.off"));
    row("not_dedicated_vm", say(l, "check.dedicated_vm"), say(l, "no"), say(l, text(req, "dedicated_vm") == "yes" ? "yes" : "no"));
    out += t.str();
    out += "\n" + say(l, "check.applies", {{"what", text(limits, "applies_to")}}) + "\n";
    return out;
}

std::string cheapest_markdown(json::object const& c, links const& to)
{
    auto const l = to.lang;
    std::string out = "# " + say(l, "cheapest.title", {{"needed", shown(l, c, "needed_gb")}}) + "\n\n";
    auto const& model = at(c, "model");
    if (model.is_object())
        out += say(l, "cheapest.model", {{"params", shown(l, model.get_object(), "params_b")},
                                         {"precision", text(model.get_object(), "precision")},
                                         {"needed", shown(l, c, "needed_gb")}}) + " ";
    out += week_line(c, to) + " " + say(l, "cheapest.tier", {{"tier", tier_name(l, text(c, "tier"))},
                                                             {"hours", shown(l, c, "hours")}}) + "\n\n";
    auto const& best = at(c, "cheapest");
    if (!best.is_object())
        return out + say(l, "cheapest.none") + "\n";
    md::table t{say(l, "col.gpu"), ">" + say(l, "col.gpus"), ">" + say(l, "col.instances"), ">" + say(l, "col.per_gpu_hour"),
                ">" + say(l, "col.per_hour"), ">" + say(l, "col.total"), say(l, "col.note")};
    auto add = [&](json::object const& o) {
        t.row({gpu_link(text(o, "gpu"), text(o, "name"), to), text(o, "gpus"), text(o, "instances"), shown(l, o, "per_gpu_hour"),
               shown(l, o, "hourly"), shown(l, o, "total"), configuration_notes(o, l)});
    };
    add(best.get_object());
    for (auto const& v : md::array_at(c, "alternatives"))
        add(v.get_object());
    out += say(l, "cheapest.first_row") + "\n\n" + t.str();
    out += "\n" + say(l, "cheapest.basis", {{"basis", escape(text(c, "basis"))}}) + "\n";
    return out;
}

}
