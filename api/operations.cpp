// The registry: every operation of the service with its parameters and the one function that
// answers it. The HTTP router, the MCP tools, the schemas and the server card are built from it.
#include "api/answer_kit.hpp"

#include "render/language.hpp"
#include "render/resources.hpp"
#include "render/views.hpp"

#include "locale/language.hpp"

#include <algorithm>
#include <array>

namespace lcg::api {

namespace {

constexpr std::string_view languages[] = {"en", "fr"};
constexpr parameter lang{"lang", value_type::string,
                         "Language of the answer (default: Accept-Language over HTTP, English over MCP)", false, languages};

// An operation that answers with a published document when given no argument is routed where
// that document is published, and written by its view.
std::string_view route_of(render::resource r) { return render::template_of(r); }
render::view const* view_of(render::resource r) { return render::kind_of(r).written_by; }

using render::resource;

}

parameter const& lang_parameter() { return lang; }

std::span<const operation> operations()
{
    static auto const registry = std::to_array<operation>({
    {"get_prices", route_of(resource::prices), "GPU prices this week",
     "The price sheet in effect: per-GPU hourly rates (on-demand, spot, reserved) of every GPU model, with the market "
     "median each is capped by. On-demand is at most 70 % of the public market median; spot is 50 % and reserved "
     "(3-month term) 65 % of on-demand. Filter by gpu, vendor, architecture, min_vram_gb or max_price; sort by gpu, "
     "price or vram; week gives the sheet that was in effect in an earlier week.",
     answers::get_prices(), view_of(resource::prices), "sheet", "vendor=amd&tier=spot&sort=price"},
    {"get_price_history", route_of(resource::price_history), "Price history of a GPU model",
     "Every published week of one GPU model, oldest first: observation count, market median, cap, on-demand, spot "
     "and reserved rates (each the figure of that week's sheet), the change of each rate from the week before, and "
     "the weeks it was not priced with the reason.",
     answers::get_price_history(), view_of(resource::price_history), "price_history", "gpu=h100-sxm"},
    {"get_history", route_of(resource::history), "Price history of every model",
     "One rate (on-demand by default) of every GPU model in every published week, weeks oldest first; null where a "
     "model was not priced. Its CSV is a wide table, a row per week and a column per model.",
     answers::get_history(), view_of(resource::history), "history_table", "tier=spot"},
    {"verify_quote", "/v1/quotes/verify", "Check a quoted price",
     "Whether a rate someone quoted for a GPU model and tier is the one LowCostGPU published for that week (week: "
     "the sheet then in effect, default now): the published figure, the verdict (published, above, below or "
     "not_priced), the difference, and the sheet's signature (key id, signature and signed bytes) to check it "
     "offline.",
     answers::verify_quote(), &render::quote_check_view, "quote_check", "gpu=h100-sxm&tier=spot&price=0.84"},
    {"get_gpu", route_of(resource::gpu), "One GPU model",
     "A GPU model of the catalog: memory, bandwidth, dense FP16 TFLOPS and PowerScore (RTX 3090 = 100), FP8, TDP, "
     "interconnect, MIG profiles, instance limits (GPUs, vCPUs, memory, CPU generations), regions and this week's "
     "prices.",
     answers::get_gpu(), view_of(resource::gpu), "gpu", "gpu=h100-sxm"},
    {"list_gpus", route_of(resource::gpus), "GPU catalog",
     "Every GPU model of the catalog with its specifications and this week's prices; filter by vendor, architecture, "
     "min_vram_gb, mig or nvlink.",
     answers::list_gpus(), view_of(resource::gpus), "catalog", "vendor=nvidia&min_vram_gb=80&mig=true"},
    {"compare_gpus", "/v1/compare", "Compare GPU models",
     "Side by side, 2 to 8 catalog models: memory, bandwidth, PowerScore, this week's rates, price per 100 PowerScore "
     "and per GB of VRAM, and the winners of each criterion (compared exactly); week gives the rates of the sheet in "
     "effect in an earlier week.",
     answers::compare_gpus(), &render::comparison_view, "comparison", "gpus=h100-sxm,a100-80gb-sxm,mi300x", true},
    {"estimate_job_cost", "/v1/estimate", "Cost of a job",
     "Exact cost of a GPU job at this week's rates, billed per second: GPU time, storage ($0.08 per GB-month of 730 "
     "h) and network ($0.01 per GB), the same job in every tier, and what the reserved 3-month commitment would "
     "cost. Give gpu and exactly one of seconds or hours; week gives the rates of the sheet in effect in an earlier "
     "week.",
     answers::estimate_job_cost(), &render::estimate_view, "estimate", "gpu=h100-sxm&gpus=2&hours=10&tier=spot&storage_gb=500&egress_gb=50&tokens_per_second=1500", true},
    {"size_model", "/v1/sizing", "GPUs a model needs",
     "How many GPUs of each catalog model hold a model: memory = parameters × bytes per parameter × 1.5, GPUs "
     "= ceil(memory / VRAM), in the practical count tensor parallelism shards over (1, 2, 4 or 8, then whole "
     "nodes; a smaller count is priced apart, marked as one that may not shard); whether each GPU computes in "
     "the precision natively (an emulated one is marked, with its cost, and never ranked first); the smallest "
     "MIG slice that fits; the hourly cost per tier; the fabric between nodes; the cheapest configuration per "
     "tier; week gives the rates of the sheet in effect in an earlier week.",
     answers::size_model(), &render::sizing_view, "sizing", "params_b=70&precision=int8", true},
    {"find_cheapest", "/v1/cheapest", "Cheapest configuration that fits",
     "The cheapest configuration that holds a model (params_b and precision) or a memory need (vram_gb), in a "
     "tier: the practical count (1, 2, 4 or 8 GPUs of one model, then whole nodes), GPUs that run the "
     "precision natively first, one instance before several, with its exact GPU-time cost for a duration "
     "(hours, default 1), the fabric between nodes where it spans several, and the next cheapest alternatives; "
     "week gives the rates of the sheet in effect in an earlier week.",
     answers::find_cheapest(), &render::cheapest_view, "cheapest", "params_b=70&precision=fp8&hours=10", true},
    {"rent_vs_buy", "/v1/rent-vs-buy", "Rent or buy?",
     "Renting GPUs here against buying them, over a horizon and a utilisation you give: the rent at the week's "
     "published rate, what owning costs (purchase, hosting, electricity while the GPUs work), which is cheaper and by "
     "how much, and the break-even: after how many months owning costs less at that utilisation, and above which "
     "utilisation it does over the horizon. Every figure of ownership is yours; none is assumed, computed exactly.",
     answers::rent_vs_buy(), &render::rent_vs_buy_view, "rent_vs_buy",
     "gpu=h100-sxm&gpus=8&purchase_price=250000&power_watts=10200&electricity_price=0.12&hosting_per_month=1500&utilisation=60&months=36",
     true},
    {"transfer_time", "/v1/transfer", "Time to move data between GPUs",
     "How long moving an amount of data (gb, default 10) takes over each link between GPUs (NVLink of Blackwell "
     "and Hopper within a node, one InfiniBand or Ethernet card between nodes), with each rate in GB/s (Gb/s "
     "divided by 8) and how many times slower each link is than Hopper's NVLink, computed exactly.",
     answers::transfer_time(), &render::transfer_view, "transfer", "gb=10"},
    {"check_instance", "/v1/instances/check", "Does a GPU fit this instance?",
     "Whether a GPU model attaches to an instance of a given shape: GPUs per instance, vCPUs, memory and CPU "
     "generation against the model's limits (in a region, when given), and the attachment rules: one GPU model per "
     "instance, the processor performance flag, no dedicated VM. Answers ok, or vm-specs-mismatch with every broken "
     "limit.",
     answers::check_instance(), &render::instance_check_view, "instance_check", "gpu=a100-80gb-sxm&gpus=8&vcpus=256&memory_gib=2048&cpu_generation=v7&region=eu-paris-1", true},
    {"get_inventory", route_of(resource::inventory), "GPUs available now",
     "How many GPUs of each model are free in each region (sample figures, not a live fleet), and the largest "
     "instance each region can start; filter by gpu and region.",
     answers::get_inventory(), view_of(resource::inventory), "inventory", "gpu=h100-sxm&region=eu-paris-1"},
    {"explain_term", route_of(resource::glossary_entry), "Explain a term",
     "A term or question of the LowCostGPU glossary (English or French, with this week's figures): by slug, by name "
     "or alias in either language (case and accents ignored), or by the first words of a name (a loose match, "
     "which the answer marks with match).",
     answers::explain_term(), view_of(resource::glossary_entry), "glossary_entry", "term=spot&lang=fr"},
    {"search_glossary", route_of(resource::glossary), "Glossary",
     "The glossary's terms (with this week's figures) in English or French: all of them with the three questions, "
     "or those of a category, or the terms and questions matching words (q).",
     answers::search_glossary(), view_of(resource::glossary), "glossary", "q=reserved&lang=en"},
    {"get_log_proof", "/v1/log/proof", "Prove the publication log",
     "A proof, in RFC 6962's hashing, over the append-only log of every publication, correction and re-signing of a "
     "sheet: with index, that the entry is in the log of size entries (an audit path); with from, that the log of "
     "size entries extends its first from entries (a consistency proof). Compare the root with a checkpoint of that "
     "size (/v1/log/checkpoint); /v1/log lists the entries.",
     answers::get_log_proof(), &render::log_proof_view, "log_proof", "index=1&size=2"},
    {"get_methodology", route_of(resource::methodology), "How prices are set",
     "The published pricing rules: the market median, on-demand at most 70 % of it, spot and reserved shares, "
     "rounding, the observation window, per-second billing, storage and network rates, account terms, PowerScore, "
     "sizing and how to audit.",
     answers::get_methodology(), view_of(resource::methodology), "methodology", ""},
});
    return registry;
}


pricing::outcome<locale::language, failure> language_of(std::optional<std::string> const& text,
                                                      locale::language preferred)
{
    if (!text)
        return preferred;
    if (auto const parsed = locale::parse_language(*text))
        return *parsed;
    return invalid_parameter("lang",
                             "lang: " + pricing::quote(*text) + " is not a language of this service; accepted: en, fr",
                             "lang\u202F: " + pricing::quote(*text) + " n’est pas une langue de ce service\u202F; accepté\u202F: en, fr");
}

result call(operation const& op, request& r)
{
    auto const l = language_of(r.args.take("lang"), r.preferred_language);
    if (!l)
        return l.err();
    r.lang = *l;
    r.args.read_query_numbers(op.parameters(), r.lang == locale::language::fr);
    auto out = op.answer.run(r);
    if (out) {
        auto* a = &out.value();
        a->lang = r.lang;
        // The operation names its English document; the French one is beside it (the glossary
        // names its language itself).
        if (a->is_published())
            a->published_query = render::language_query(a->published_query, r.lang);
    }
    return out;
}

operation const* find_tool(std::string_view name)
{
    auto const all = operations();
    auto it = std::find_if(all.begin(), all.end(), [&](operation const& op) { return op.tool == name; });
    return it == all.end() ? nullptr : &*it;
}

std::vector<std::pair<std::string_view, std::string_view>> example_arguments(operation const& op)
{
    std::vector<std::pair<std::string_view, std::string_view>> out;
    std::string_view rest = op.example;
    while (!rest.empty()) {
        auto const amp = rest.find('&');
        auto const pair = rest.substr(0, amp);
        rest = amp == std::string_view::npos ? std::string_view{} : rest.substr(amp + 1);
        auto const eq = pair.find('=');
        out.emplace_back(pair.substr(0, eq), pair.substr(eq + 1));
    }
    return out;
}

example_request example_target(operation const& op)
{
    example_request out{std::string(op.route), {}};
    for (auto const& [name, value] : example_arguments(op)) {
        auto const placeholder = "{" + std::string(name) + "}";
        if (auto const at = out.path.find(placeholder); at != std::string::npos)
            out.path.replace(at, placeholder.size(), value);
        else
            out.query += (out.query.empty() ? "?" : "&") + std::string(name) + "=" + std::string(value);
    }
    return out;
}

}
