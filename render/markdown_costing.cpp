// Markdown of the costing tools: estimate, sizing, comparison, instance check.
#include "render/markdown.hpp"

#include "render/markdown_text.hpp"

namespace lcg::render {

namespace {

namespace json = boost::json;
using md::at;
using md::escape;
using md::text;

std::string tier_name(std::string_view tier)
{
    if (tier == "on_demand")
        return "On-demand";
    if (tier == "spot")
        return "Spot";
    if (tier == "reserved")
        return "Reserved";
    return std::string(tier);
}

std::string item_name(std::string_view item)
{
    if (item == "gpu_time")
        return "GPU time";
    if (item == "storage")
        return "Storage";
    if (item == "egress")
        return "Egress";
    if (item == "ingress")
        return "Ingress";
    return std::string(item);
}

std::string gpu_link(std::string const& id, std::string const& name, links const& to)
{
    return md::link(name.empty() ? id : name, to("/v1/gpus/" + id));
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

std::string week_line(json::object const& o, links const& to)
{
    auto const& week = at(o, "week");
    if (!week.is_string())
        return "No price sheet is in effect.";
    return "Prices of sheet " + md::link(text(week), to("/v1/prices")) + ", in USD.";
}

}

std::string estimate_markdown(json::object const& e, links const& to)
{
    std::string const tier = text(e, "tier");
    auto const& duration = md::object_at(e, "duration");
    std::string out = "# Estimate: " + text(e, "gpus") + " × " + escape(text(e, "name")) + ", " + tier_name(tier) +
                      ", " + text(duration, "hours") + " hours\n\n";
    out += week_line(e, to) + " Billed per second; each line is prorated and rounded half-up to the micro-dollar.\n\n";
    if (text(e, "instances") != "1")
        out += "On " + text(e, "instances") + " instances (an instance takes at most " + text(e, "max_gpus_per_instance") +
               " of these GPUs), at the same per-GPU rate.\n\n";
    md::table lines{"Item", ">Quantity", "Unit", ">Rate (USD)", "Rate unit", ">Amount (USD)"};
    for (auto const& v : md::array_at(e, "lines")) {
        auto const& l = v.get_object();
        lines.row({item_name(text(l, "item")), text(l, "quantity"), text(l, "unit"), text(l, "unit_rate"),
                   escape(text(l, "rate_unit")), text(l, "amount")});
    }
    lines.row({"**Total**", "", "", "", "", "**" + text(e, "total") + "**"});
    out += lines.str();
    out += "\n**" + escape(text(e, "headline")) + "**.\n\nTotal " + text(e, "total_display") + "; effective " +
           text(e, "effective_per_gpu_hour") + " USD per GPU-hour, storage and network included.\n\n";

    out += "## The same job in every tier\n\n";
    auto const& throughput = at(e, "throughput");
    bool const tokens = throughput.is_object() && throughput.get_object().contains("tokens_per_second");
    bool const images = throughput.is_object() && !tokens;
    bool const per_work = tokens || images;
    std::string const work_column = tokens ? ">USD per million tokens" : ">USD per image";
    // The last column only when a throughput was given (a row's extra cell is dropped otherwise).
    md::table tiers = per_work ? md::table{"Tier", ">USD per GPU-hour", ">GPU time (USD)", ">Total (USD)", work_column}
                               : md::table{"Tier", ">USD per GPU-hour", ">GPU time (USD)", ">Total (USD)"};
    for (auto const& v : md::array_at(e, "tiers")) {
        auto const& t = v.get_object();
        std::string name = tier_name(text(t, "tier"));
        if (at(t, "selected").is_bool() && at(t, "selected").get_bool())
            name = "**" + name + "** (chosen)";
        tiers.row({name, text(t, "per_gpu_hour"), text(t, "gpu_time"), text(t, "total"),
                   text(t, tokens ? "cost_per_million_tokens" : "cost_per_image")});
    }
    out += tiers.str();
    if (throughput.is_object())
        out += "\nThroughput: " + escape(text(throughput.get_object(), "basis")) + ".\n";

    auto const& r = md::object_at(e, "reserved_term");
    out += "\n## Reserved commitment\n\n";
    out += text(r, "months") + " months (" + text(r, "hours") + " hours) × " + text(r, "gpus") + " GPUs × " +
           text(r, "per_gpu_hour") + " USD per GPU-hour = **" + text(r, "commitment_display") + "**: " +
           escape(text(r, "note")) + ".\n\n";
    out += md::link("Methodology", to("/v1/methodology")) + " · " + md::link("prices", to("/v1/prices")) + "\n";
    return out;
}

std::string sizing_markdown(json::object const& s, links const& to)
{
    std::string out = "# GPUs for a " + text(s, "params_b") + "B-parameter model at " + text(s, "precision") + "\n\n";
    out += "Memory needed: " + text(s, "params_b") + " billion × " + text(s, "bytes_per_param") + " bytes × " +
           text(s, "overhead_factor") + " = **" + text(s, "needed_gb") + " GB**. " + week_line(s, to) +
           " Hourly costs are for the practical number of GPUs (in several instances past a model's limit); where "
           "fewer GPUs hold the model, the note gives that count and its on-demand cost. " + escape(text(s, "mig_note")) +
           ".\n\n";
    md::table t{"GPU", ">VRAM (GB)", ">GPUs needed", ">Practical GPUs", "Smallest MIG slice", ">On-demand (USD/h)",
                ">Spot (USD/h)", ">Reserved (USD/h)", "Note"};
    for (auto const& v : md::array_at(s, "models")) {
        auto const& m = v.get_object();
        auto const& mig = md::object_at(m, "mig");
        auto const& hourly = at(m, "hourly");
        std::string slice = "—";
        if (at(mig, "fits").is_bool() && at(mig, "fits").get_bool())
            slice = md::code(text(mig, "profile")) + " (" + text(mig, "instances_per_gpu") + " per GPU)";
        std::string note = at(m, "note").is_string() ? escape(text(m, "note")) : "";
        if (auto const& smallest = at(m, "smallest_hourly"); smallest.is_object())
            note += " (" + text(m, "gpus_needed") + " GPUs: " + text(smallest.get_object(), "on_demand") +
                    " USD/h on-demand)";
        if (m.contains("reason"))
            note += (note.empty() ? "" : "; ") + escape(text(m, "reason"));
        auto rate = [&](char const* tier) {
            return hourly.is_object() ? text(hourly.get_object(), tier) : std::string("—");
        };
        t.row({gpu_link(text(m, "gpu"), text(m, "name"), to), text(m, "vram_gb"), text(m, "gpus_needed"),
               text(m, "practical_gpus"), slice, rate("on_demand"), rate("spot"), rate("reserved"), note});
    }
    out += t.str();
    out += "\n## Cheapest configuration\n\n";
    for (auto const& [tier, c] : md::object_at(s, "cheapest")) {
        out += "- " + tier_name(tier) + ": ";
        if (c.is_object())
            out += text(c.get_object(), "gpus") + " × " + gpu_link(text(c.get_object(), "gpu"), "", to) + " in " +
                   text(c.get_object(), "instances") + " instance(s), " + text(c.get_object(), "hourly") +
                   " USD per hour\n";
        else
            out += "none priced\n";
    }
    out += "\nFormula: " + escape(text(s, "formula")) + ".\n";
    return out;
}

std::string comparison_markdown(json::object const& c, links const& to)
{
    std::string out = "# GPU comparison\n\n";
    out += week_line(c, to) + " Prices per GPU-hour.\n\n";
    md::table t{"GPU", ">VRAM (GB)", ">Bandwidth (GB/s)", ">FP16 dense TFLOPS", ">PowerScore", ">On-demand",
                ">Spot", ">Reserved", ">Per 100 PowerScore", ">Per GB of VRAM"};
    for (auto const& v : md::array_at(c, "gpus")) {
        auto const& g = v.get_object();
        auto const& prices = at(g, "prices");
        auto rate = [&](char const* tier) {
            return prices.is_object() ? text(prices.get_object(), tier) : std::string("—");
        };
        t.row({gpu_link(text(g, "gpu"), text(g, "name"), to), text(g, "vram_gb"), text(g, "memory_bandwidth_gbs"),
               md::figure(at(g, "fp16_dense_tflops")), md::figure(at(g, "power_score")), rate("on_demand"), rate("spot"),
               rate("reserved"), text(g, "price_per_100_power_score"), text(g, "price_per_gb_vram_hour")});
    }
    out += t.str();
    auto const& w = md::object_at(c, "winners");
    out += "\n## Winners\n\n";
    for (auto const& [tier, list] : md::object_at(w, "lowest_price"))
        out += "- Lowest " + (tier == "on_demand" ? std::string("on-demand") : std::string(tier)) + " price: " +
               ids(list.as_array(), to) + "\n";
    out += "- Most VRAM: " + ids(md::array_at(w, "most_vram"), to) + "\n";
    out += "- Most memory bandwidth: " + ids(md::array_at(w, "most_bandwidth"), to) + "\n";
    out += "- Highest PowerScore: " + ids(md::array_at(w, "highest_power_score"), to) + "\n";
    out += "- Lowest price per PowerScore: " + ids(md::array_at(w, "lowest_price_per_power_score"), to) + "\n";
    out += "- Lowest price per GB of VRAM: " + ids(md::array_at(w, "lowest_price_per_gb_vram"), to) + "\n";
    out += "\n## Notes\n\n";
    for (auto const& [key, note] : md::object_at(c, "notes"))
        out += "- " + md::code(key) + ": " + escape(text(note)) + ".\n";
    return out;
}

std::string instance_check_markdown(json::object const& c, links const& to)
{
    bool const ok = text(c, "status") == "ok";
    auto const& req = md::object_at(c, "requested");
    auto const& limits = md::object_at(c, "limits");
    std::string const gpu = text(c, "gpu");
    std::string out = "# Instance check: " + std::string(ok ? "fits" : "vm-specs-mismatch") + "\n\n";
    out += text(req, "gpus") + " × " + md::link(gpu, to("/v1/gpus/" + gpu)) + " with " + text(req, "vcpus") +
           " vCPUs, " + text(req, "memory_gib") + " GiB and CPU generation " + md::code(text(req, "cpu_generation"));
    out += at(c, "region").is_string() ? " in " + md::code(text(c, "region")) : std::string(" (any region)");
    out += ok ? ": **within every limit**.\n\n" : ": **outside the limits below**.\n\n";
    md::table t{"Limit", "Allowed", "Requested", "Status"};
    auto problem_of = [&](std::string_view limit) -> json::object const* {
        for (auto const& p : md::array_at(c, "problems"))
            if (text(p.get_object(), "limit") == limit)
                return &p.get_object();
        return nullptr;
    };
    auto row = [&](std::string_view limit, std::string label, std::string allowed, std::string requested) {
        t.row({std::move(label), std::move(allowed), std::move(requested), problem_of(limit) ? "**exceeded**" : "ok"});
    };
    row("max_gpus_per_instance", "GPUs per instance", "up to " + text(limits, "max_gpus_per_instance"), text(req, "gpus"));
    row("max_vcpus", "vCPUs per instance", "up to " + text(limits, "max_vcpus"), text(req, "vcpus"));
    row("max_memory_gib", "Memory per instance (GiB)", "up to " + text(limits, "max_memory_gib"), text(req, "memory_gib"));
    row("cpu_generation", "CPU generation", md::list(md::array_at(limits, "cpu_generations")),
        escape(text(req, "cpu_generation")));
    auto const& other = at(req, "other_gpu");
    row("one_gpu_model", "GPU model", "only " + md::code(gpu), other.is_string() ? md::code(text(other)) : gpu);
    row("cpu_performance_flag", "Processor performance flag", "on", text(req, "cpu_performance") == "yes" ? "on" : "off");
    row("not_dedicated_vm", "Dedicated VM", "no", text(req, "dedicated_vm"));
    out += t.str();
    out += "\nLimits apply per " + text(limits, "applies_to") + ", whatever its number of GPUs.\n";
    return out;
}

std::string cheapest_markdown(json::object const& c, links const& to)
{
    std::string out = "# Cheapest configuration for " + text(c, "needed_gb") + " GB\n\n";
    auto const& model = at(c, "model");
    if (model.is_object())
        out += "A " + text(model.get_object(), "params_b") + "B-parameter model at " +
               text(model.get_object(), "precision") + " needs " + text(c, "needed_gb") + " GB. ";
    out += week_line(c, to) + " " + tier_name(text(c, "tier")) + " tier, " + text(c, "hours") + " h.\n\n";
    auto const& best = at(c, "cheapest");
    if (!best.is_object())
        return out + "No priced configuration holds it: it needs more GPUs than a configuration is priced for, "
                     "or a smaller precision.\n";
    md::table t{"GPU", ">GPUs", ">Instances", ">Per GPU-hour", ">Per hour", ">Total"};
    auto add = [&](json::object const& o) {
        t.row({gpu_link(text(o, "gpu"), text(o, "name"), to), text(o, "gpus"), text(o, "instances"),
               text(o, "per_gpu_hour"), text(o, "hourly"), text(o, "total")});
    };
    add(best.get_object());
    for (auto const& v : md::array_at(c, "alternatives"))
        add(v.get_object());
    out += "The first row is the cheapest; the others are the next cheapest.\n\n" + t.str();
    out += "\nBasis: " + escape(text(c, "basis")) + ".\n";
    return out;
}

}
