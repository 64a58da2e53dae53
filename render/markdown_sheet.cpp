// Markdown of the price sheet, the catalog, the sheets history, the audit inputs, the regions and
// the inventory.
#include "render/markdown.hpp"

#include "render/markdown_text.hpp"

#include "pricing/money.hpp"
#include "pricing/rules.hpp"

#include <map>
#include <vector>

namespace lcg::render {

namespace {

namespace json = boost::json;
namespace rules = pricing::rules;
using md::at;
using md::escape;
using md::percent;
using md::text;

std::string gpu_link(json::object const& row, links const& to, std::string_view id_key = "gpu")
{
    std::string const id = text(row, id_key);
    auto const& name = at(row, "name");
    return md::link(name.is_string() ? std::string(name.get_string()) : id, to("/v1/gpus/" + id));
}

std::string rules_sentence()
{
    return "On-demand is at most " + percent(rules::on_demand_of_median) +
           " of the public marketplace median, rounded down to the mill ($0.001); spot (interruptible) is " +
           percent(rules::spot_of_on_demand) + " and reserved (" + std::to_string(rules::reserved_term_months) +
           "-month term) " + percent(rules::reserved_of_on_demand) + " of on-demand, also rounded down.";
}

}

std::string billing_section(json::object const& b)
{
    auto const& account = md::object_at(b, "account");
    auto const& sla = md::object_at(b, "sla");
    std::string out = "## Billing\n\n";
    out += "- Billing: " + escape(text(b, "billing_granularity")) + ".\n";
    out += "- Instances: " + escape(text(b, "multi_gpu")) + ".\n";
    out += "- Storage: $" + text(b, "storage_per_gb_month") + " per GB-month (" + escape(text(b, "storage_note")) +
           ").\n";
    out += "- Network: $" + text(b, "network_per_gb") + " per GB (" + escape(text(b, "network_note")) + ").\n";
    out += "- Regions: " + escape(text(b, "regions_note")) + ".\n";
    out += "- Reserved: a " + text(b, "reserved_term_months") + "-month term; it pays off above " +
           text(b, "reserved_break_even_utilisation_percent") + " % utilisation.\n";
    auto const& locked = md::object_at(b, "rate_locked");
    out += "- Rates locked: on-demand " + escape(text(locked, "on_demand")) + "; reserved " +
           escape(text(locked, "reserved")) + ".\n";
    auto const& spot = md::object_at(b, "spot");
    out += "- Spot: bidding: " + text(spot, "bidding") + "; disk kept when interrupted: " +
           text(spot, "disk_kept_when_interrupted") + "; queued again automatically: " +
           text(spot, "requeued_automatically") + ".\n";
    out += "- Tenancy: " + escape(text(md::object_at(b, "tenancy"), "note")) + ". Data centres: " +
           escape(text(b, "data_centre_tier")) + ".\n";
    std::string assets;
    for (auto const& a : md::array_at(account, "payment_assets"))
        assets += (assets.empty() ? "" : ", ") + text(a.get_object(), "asset") + " (" +
                  md::list(md::array_at(a.get_object(), "networks")) + ")";
    out += "- Account: " + escape(text(account, "balance")) + ", refundable: " + text(account, "balance_refundable") + ", minimum top-up $" +
           text(account, "minimum_top_up") + ", credits never expire; " + escape(text(account, "identity")) +
           "; paid in " + assets + ".\n";
    std::string tiers;
    for (auto const& t : md::array_at(sla, "applies_to"))
        tiers += (tiers.empty() ? "" : " and ") + std::string(text(t) == "on_demand" ? "on-demand" : text(t));
    out += "- SLA: " + text(sla, "monthly_target_percent") + " % monthly on " + tiers + ", with " +
           escape(text(sla, "remedy")) + ".\n";
    return out;
}

std::string sheet_markdown(json::object const& s, links const& to)
{
    std::string const week = text(s, "week");
    std::string out = "# GPU price sheet " + week + "\n\n";
    out += "In effect from **" + md::when(text(s, "effective_from")) + "** until **" + md::when(text(s, "effective_until")) +
           "**; published " + md::when(text(s, "published_at")) + ".\n\n";
    out += "Prices in **USD per GPU-hour**. " + rules_sentence() + "\n\n";
    std::string const cap_column = ">Cap (" + percent(rules::on_demand_of_median) + " of median)";
    // The HTML page adds each model's on-demand trend, a small chart linking to its history.
    bool const trend = to.target == render::format::html;
    md::table t = trend ? md::table{"GPU", ">Market median", cap_column, ">On-demand", ">Spot", ">Reserved", ">Headroom",
                                    ">Observations", "Trend"}
                        : md::table{"GPU", ">Market median", cap_column, ">On-demand", ">Spot", ">Reserved", ">Headroom",
                                    ">Observations"};
    for (auto const& v : md::array_at(s, "prices")) {
        auto const& row = v.get_object();
        std::vector<std::string> cells;
        if (at(row, "available").is_bool() && at(row, "available").get_bool())
            cells = {gpu_link(row, to), text(row, "median"), text(row, "cap"), text(row, "on_demand"), text(row, "spot"),
                     text(row, "reserved"), text(row, "headroom"), text(row, "observations")};
        else
            cells = {gpu_link(row, to), row.contains("median") ? text(row, "median") : "—", "—",
                     "not priced: " + escape(text(row, "reason")), "—", "—", "—", text(row, "observations")};
        if (trend) {
            std::string const id = text(row, "gpu");
            cells.push_back("[![on-demand by week](/v1/prices/" + id + "/sparkline.svg)](" +
                            to("/v1/prices/" + id + "/history") + ")");
        }
        t.row(std::move(cells));
    }
    out += t.str();
    // A filtered sheet (/v1/prices?vendor=…) shows fewer rows than the sheet prices: say both.
    out += "\n" + std::to_string(md::array_at(s, "prices").size()) + " rows shown; the sheet prices " +
           text(s, "priced_models") + " models. An instance of n GPUs costs n × the per-GPU rate.\n\n";
    out += billing_section(md::object_at(s, "billing"));
    out += "\n## Audit\n\n";
    out += "- Computed from " + text(s, "observations") + " marketplace observations: " +
           md::link("the inputs", to("/v1/sheets/" + week + "/observations")) + " (" +
           md::link("canonical CSV", "/v1/sheets/" + week + "/observations.csv") + ", SHA-256 " +
           md::code(text(s, "inputs_sha256")) + ").\n";
    if (at(s, "signature").is_string())
        out += "- Signed (Ed25519) with key " + md::code(text(s, "key_id")) + " over " +
               md::link("these bytes", text(s, "signed_bytes_url")) + "; signature " + md::code(text(s, "signature")) +
               ".\n";
    else
        out += "- Not signed.\n";
    out += "- Rules and how to recompute every figure: " + md::link("methodology", to("/v1/methodology")) + ".\n";
    out += "- Other weeks: " + md::link("sheets history", to("/v1/sheets")) + ".\n";
    return out;
}

std::string price_markdown(json::object const& p, links const& to)
{
    std::string const id = text(p, "gpu");
    std::string const name = p.contains("name") ? text(p, "name") : id;
    std::string out = "# " + escape(name) + " prices, week " + text(p, "week") + "\n\n";
    out += "In effect from **" + md::when(text(p, "effective_from")) + "** until **" + md::when(text(p, "effective_until")) +
           "**. " + rules_sentence() + "\n\n";
    if (at(p, "available").is_bool() && at(p, "available").get_bool()) {
        md::table t{"Tier", ">USD per GPU-hour"};
        t.row({"On-demand", text(p, "on_demand")});
        t.row({"Spot (interruptible)", text(p, "spot")});
        t.row({"Reserved (" + std::to_string(rules::reserved_term_months) + "-month term)", text(p, "reserved")});
        out += t.str() + "\n";
        out += "- Market median: " + text(p, "median") + " USD per GPU-hour, from " + text(p, "observations") +
               " observations.\n";
        out += "- Cap (" + percent(rules::on_demand_of_median) + " of the median): " + text(p, "cap") +
               "; headroom below the cap: " + text(p, "headroom") + ".\n";
    } else {
        out += "**Not priced this week**: " + escape(text(p, "reason")) + "\n\n";
    }
    out += "\n" + md::link("Specifications of the " + name, to("/v1/gpus/" + id)) + " · " +
           md::link("every price of the sheet", to("/v1/prices")) + "\n";
    return out;
}

std::string price_history_markdown(json::object const& h, links const& to)
{
    std::string const id = text(h, "gpu");
    std::string const name = text(h, "name");
    std::string out = "# " + escape(name) + " price history\n\n";
    out += text(h, "count") + " published weeks, oldest first, in USD per GPU-hour. Each week's figures are those of "
           "its " + md::link("sheet", to("/v1/sheets")) + "; the change is from the week before, when both were priced.\n\n";
    out += "![" + escape(name) + ": median and rates by week](" + text(h, "chart_url") + ")\n\n";
    md::table t{"Week", ">Observations", ">Median", ">Cap", ">On-demand", ">Change", ">Spot", ">Reserved", "Note"};
    for (auto const& v : md::array_at(h, "weeks")) {
        auto const& w = v.get_object();
        std::string const week = text(w, "week");
        bool const priced = at(w, "available").is_bool() && at(w, "available").get_bool();
        auto const& change = md::object_at(w, "change");
        t.row({md::link(week, to("/v1/sheets/" + week)), text(w, "observations"),
               w.contains("median") ? text(w, "median") : "—", w.contains("cap") ? text(w, "cap") : "—",
               priced ? text(w, "on_demand") : "—", change.empty() ? "—" : text(change, "on_demand"),
               priced ? text(w, "spot") : "—", priced ? text(w, "reserved") : "—",
               priced ? "" : "not priced: " + escape(text(w, "reason"))});
    }
    out += t.str() + "\n";
    out += md::link("This week's " + name + " price", to("/v1/prices/" + id)) + " · " +
           md::link("every model's history", to("/v1/history")) + " · " +
           md::link("CSV", "/v1/prices/" + id + "/history.csv") + "\n";
    return out;
}

std::string history_table_markdown(json::object const& t, links const& to)
{
    std::string const tier = text(t, "tier");
    std::string out = "# Price history of every model\n\n";
    out += "The " + escape(tier) + " rate of each GPU model over the " + text(t, "count") +
           " published weeks, in USD per GPU-hour. The " + md::link("CSV", "/v1/history.csv" +
           std::string(tier == "on_demand" ? "" : "?tier=" + tier)) + " has every week in a row and every model in a column; "
           "each model's page has its weeks in full.\n\n";
    auto const& weeks = md::array_at(t, "weeks");
    md::table table{"Model", ">Priced weeks", "First week", ">First rate", "Latest week", ">Latest rate"};
    for (auto const& id_value : md::array_at(t, "gpus")) {
        std::string const id(id_value.get_string());
        int priced = 0;
        std::string first_week, first_rate, last_week, last_rate;
        for (auto const& v : weeks) {
            auto const& rate = at(md::object_at(v.get_object(), "rates"), id);
            if (!rate.is_string())
                continue;
            ++priced;
            if (first_week.empty())
                first_week = text(v.get_object(), "week"), first_rate = text(rate);
            last_week = text(v.get_object(), "week"), last_rate = text(rate);
        }
        table.row({md::link(id, to("/v1/prices/" + id + "/history")), std::to_string(priced),
                   first_week.empty() ? "—" : first_week, first_rate.empty() ? "—" : first_rate,
                   last_week.empty() ? "—" : last_week, last_rate.empty() ? "—" : last_rate});
    }
    out += table.str();
    return out;
}

std::string catalog_markdown(json::object const& c, links const& to)
{
    std::string out = "# GPU catalog\n\n";
    out += text(c, "count") + " models";
    if (auto const& f = md::object_at(c, "filters"); !f.empty()) {
        out += " matching ";
        bool first = true;
        for (auto const& [key, value] : f) {
            out += first ? "" : ", ";
            out += escape(key) + " = " + escape(text(value));
            first = false;
        }
        out += " (" + md::link("the whole catalog", to("/v1/gpus")) + ")";
    }
    out += ".";
    if (c.contains("prices_week"))
        out += " On-demand prices from sheet " + md::link(text(c, "prices_week"), to("/v1/prices")) +
               ", in USD per GPU-hour.";
    out += " PowerScore: 100 × dense FP16 tensor TFLOPS (FP32 accumulate, no sparsity) / the RTX 3090's. "
           "A figure followed by ? was not confirmed by a primary source.\n\n";
    md::table t{"GPU", "Vendor", "Architecture", ">VRAM (GB)", ">Bandwidth (GB/s)", ">FP16 dense TFLOPS",
                ">PowerScore", "NVLink", "MIG", ">Max GPUs per instance", ">On-demand (USD per GPU-hour)"};
    for (auto const& v : md::array_at(c, "gpus")) {
        auto const& g = v.get_object();
        auto const& prices = md::object_at(g, "prices");
        std::string od = prices.contains("on_demand") ? text(prices, "on_demand") : "—";
        t.row({gpu_link(g, to, "id"), escape(text(g, "vendor")), escape(text(g, "architecture")), text(g, "vram_gb"),
               text(g, "memory_bandwidth_gbs"), md::figure(at(g, "fp16_dense_tflops")), md::figure(at(g, "power_score")),
               text(md::object_at(g, "interconnect"), "nvlink"), text(md::object_at(g, "mig"), "supported"),
               text(md::object_at(g, "instance_limits"), "max_gpus"), od});
    }
    out += t.str();
    return out;
}

std::string gpu_markdown(json::object const& g, links const& to)
{
    std::string const id = text(g, "id");
    std::string out = "# " + escape(text(g, "name")) + "\n\n";
    out += escape(text(g, "vendor")) + " " + escape(text(g, "architecture")) + ", " + escape(text(g, "form_factor")) +
           ", " + text(g, "vram_gb") + " GB " + escape(text(g, "memory_type")) + ". Catalog id " + md::code(id) + ".\n\n";

    out += "## Prices\n\n";
    if (auto const& p = md::object_at(g, "prices"); p.empty()) {
        out += "No price sheet is in effect.\n\n";
    } else if (at(p, "available").is_bool() && at(p, "available").get_bool()) {
        md::table t{"Tier", ">USD per GPU-hour"};
        t.row({"On-demand", text(p, "on_demand")});
        t.row({"Spot (interruptible)", text(p, "spot")});
        t.row({"Reserved (" + std::to_string(rules::reserved_term_months) + "-month term)", text(p, "reserved")});
        out += t.str() + "\nMarket median " + text(p, "median") + " from " + text(p, "observations") +
               " observations; the same per-GPU rate from 1 to " + text(md::object_at(g, "instance_limits"), "max_gpus") +
               " GPUs. " + md::link("This week's line", to("/v1/prices/" + id)) + ".\n\n";
    } else {
        out += "Not priced this week: " + escape(text(p, "reason")) + "\n\n";
    }

    out += "## Specifications\n\n";
    auto const& tflops = md::object_at(g, "fp16_dense_tflops");
    auto const& score = at(g, "power_score");
    auto const& link = md::object_at(g, "interconnect");
    md::table spec{"Figure", "Value"};
    spec.row({"VRAM", text(g, "vram_gb") + " GB " + escape(text(g, "memory_type"))});
    spec.row({"Memory bandwidth", text(g, "memory_bandwidth_gbs") + " GB/s"});
    spec.row({"FP16 dense tensor", md::figure(tflops) + " TFLOPS: " + escape(text(tflops, "convention"))});
    spec.row({"PowerScore", md::figure(score) + (score.is_object() ? " (" + escape(text(score.get_object(), "reference")) + ")" : "")});
    spec.row({"FP8 dense tensor", md::figure(at(g, "fp8_dense_tflops")) + " TFLOPS"});
    spec.row({"TDP", md::figure(at(g, "tdp_w")) + " W"});
    spec.row({"Interconnect", at(link, "type").is_null() ? "PCIe only"
                                                          : escape(text(link, "type")) + ", " +
                                                                md::figure(at(link, "bandwidth_gbs")) + " GB/s"});
    out += spec.str();
    out += "\nA figure followed by ? was not confirmed by a primary source. Source: " + escape(text(g, "source")) + "\n\n";

    auto const& mig = md::object_at(g, "mig");
    out += "## MIG\n\n";
    if (at(mig, "supported").is_bool() && at(mig, "supported").get_bool()) {
        out += "Up to " + text(mig, "max_instances") + " instances per GPU.\n\n";
        md::table t{"Profile", ">Memory (GB)", ">Compute (of the GPU)", ">Max instances"};
        for (auto const& v : md::array_at(mig, "profiles")) {
            auto const& p = v.get_object();
            t.row({md::code(text(p, "name")), text(p, "memory_gb"), text(p, "compute_fraction"), text(p, "max_instances")});
        }
        out += t.str() + "\n" + escape(text(mig, "note")) + ".\n\n";
    } else {
        out += "Not supported.\n\n";
    }

    auto const& limits = md::object_at(g, "instance_limits");
    out += "## Instance limits\n\n";
    out += "- GPUs per instance: 1 to " + text(limits, "max_gpus") + ".\n";
    out += "- Per instance, whatever its number of GPUs: at most " + text(limits, "max_vcpus") + " vCPUs and " +
           text(limits, "max_memory_gib") + " GiB of memory.\n";
    out += "- CPU generations: " + md::list(md::array_at(limits, "cpu_generations")) + ".\n";
    for (auto const& [region, gens] : md::object_at(limits, "extra_cpu_generations_by_region"))
        out += "- Also in " + md::code(region) + ": " + md::list(gens.as_array()) + ".\n";
    // An example at the model's limits, which the check accepts.
    auto const& generations = md::array_at(limits, "cpu_generations");
    std::string const example = "?gpu=" + id + "&gpus=" + text(limits, "max_gpus") + "&vcpus=" + text(limits, "max_vcpus") +
                                "&memory_gib=" + text(limits, "max_memory_gib") + "&cpu_generation=" +
                                (generations.empty() ? std::string("v7") : text(generations.front()));
    out += "- Check an instance shape: " + md::link("instance check", to("/v1/instances/check", example)) + ".\n\n";

    auto const& regions = md::object_at(g, "regions");
    out += "## Regions\n\nOffered in " + text(regions, "count") + " regions, at the same price everywhere: " +
           md::list(md::array_at(regions, "codes")) + ". " + md::link("All regions", to("/v1/regions")) + " · " +
           md::link("the catalog", to("/v1/gpus")) + "\n";
    return out;
}

std::string sheet_index_markdown(json::object const& idx, links const& to)
{
    std::string out = "# Price sheets\n\n";
    out += text(idx, "count") + " weekly sheets, newest first. Each takes effect on Monday 00:00 UTC and is computed "
           "from the marketplace observations of the 7 days before.";
    if (auto const& current = at(idx, "current"); current.is_string())
        out += " In effect now: " + md::link(text(current), to("/v1/prices")) + ".";
    out += "\n\n";
    md::table t{"Week", "Effective from", "Until", "Published", ">Priced models", ">Observations", "Inputs"};
    for (auto const& v : md::array_at(idx, "sheets")) {
        auto const& s = v.get_object();
        std::string const week = text(s, "week");
        t.row({md::link(week, to("/v1/sheets/" + week)), md::when(text(s, "effective_from")),
               md::when(text(s, "effective_until")), md::when(text(s, "published_at")),
               text(s, "priced_models") + " of " + text(s, "models"), text(s, "observations"),
               md::link("observations", to("/v1/sheets/" + week + "/observations")) + " (" +
                   md::link("CSV", "/v1/sheets/" + week + "/observations.csv") + ")"});
    }
    out += t.str();
    return out;
}

std::string observations_markdown(json::object const& o, links const& to)
{
    std::string const week = text(o, "week");
    std::string out = "# Inputs of sheet " + week + "\n\n";
    out += text(o, "count") + " on-demand listings observed on the public GPU marketplace from " +
           md::when(text(o, "window_from")) + " until " + md::when(text(o, "window_until")) + ", prices in USD per GPU-hour.\n\n";
    out += "The " + md::link("canonical CSV", "/v1/sheets/" + week + "/observations.csv") +
           " lists every observation; its SHA-256 is the sheet's `inputs_sha256`, " + md::code(text(o, "inputs_sha256")) +
           ". The " + md::link("sheet", to("/v1/sheets/" + week)) + " publishes each model's median.\n\n";
    md::table t{"GPU", ">Observations", ">Lowest", ">Highest"};
    for (auto const& v : md::array_at(o, "models")) {
        auto const& m = v.get_object();
        std::string const gpu = text(m, "gpu");
        t.row({md::link(gpu, to("/v1/gpus/" + gpu)), text(m, "count"), text(m, "lowest"), text(m, "highest")});
    }
    out += t.empty() ? "No observations.\n" : t.str();
    return out;
}

std::string regions_markdown(json::object const& r, links const& to)
{
    std::string out = "# Regions\n\n";
    out += text(r, "count") + " regions on " + text(r, "continents") + " continents; " + escape(text(r, "note")) + " (" +
           md::link("prices", to("/v1/prices")) + ").\n\n";
    md::table t{"Code", "City", "Country", "Continent", "Sovereign"};
    for (auto const& v : md::array_at(r, "regions")) {
        auto const& reg = v.get_object();
        t.row({md::code(text(reg, "code")), escape(text(reg, "city")), escape(text(reg, "country")),
               escape(text(reg, "continent")), text(reg, "sovereign")});
    }
    out += t.str();
    return out;
}

std::string inventory_markdown(json::object const& inv, links const& to)
{
    std::string out = "# Inventory\n\n";
    out += "Free GPUs per model and region, with the largest instance each region can take now. Note: " +
           escape(text(inv, "note")) + ".\n\n";
    md::table t{"GPU", ">Free GPUs", ">Regions with stock", ">Max GPUs per instance"};
    std::string detail;
    for (auto const& v : md::array_at(inv, "gpus")) {
        auto const& g = v.get_object();
        std::string const id = text(g, "gpu");
        auto const& regions = md::array_at(g, "regions");
        t.row({md::link(id, to("/v1/gpus/" + id)), text(g, "available_gpus"), std::to_string(regions.size()),
               text(g, "max_gpus_per_instance")});
        if (regions.empty())
            continue;
        detail += "- **" + escape(id) + "**: ";
        bool first = true;
        for (auto const& rv : regions) {
            auto const& reg = rv.get_object();
            detail += first ? "" : ", ";
            detail += text(reg, "region") + " " + text(reg, "available_gpus");
            first = false;
        }
        detail += "\n";
    }
    out += t.str();
    if (!detail.empty())
        out += "\n## Free GPUs by region\n\n" + detail;
    return out;
}

}
