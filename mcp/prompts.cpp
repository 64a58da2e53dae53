#include "mcp/prompts.hpp"
#include "api/arguments.hpp"
#include "pricing/utf8.hpp"

#include "mcp/resources.hpp"

#include "pricing/quantity.hpp"
#include "pricing/sheet.hpp"

#include <boost/json/parse.hpp>

#include <algorithm>
#include <string>
#include <vector>

namespace lcg::mcp {

namespace {

namespace json = boost::json;

constexpr std::size_t max_completions = 100;

// A prompt argument: a string as long as a tool's string argument may be.
struct prompt_arguments {
    json::object const* raw;

    result_or_failure<std::optional<std::string>> get(std::string_view name, bool required) const
    {
        json::value const* v = raw ? raw->if_contains(name) : nullptr;
        if (!v || v->is_null()) {
            if (required)
                return invalid_params("missing required argument " + pricing::quote(name));
            return std::optional<std::string>{};
        }
        if (!v->is_string() || api::argument_length(v->get_string()) > api::max_argument_characters)
            return invalid_params("argument " + pricing::quote(name) + " must be a string of at most " +
                                  std::to_string(api::max_argument_characters) + " characters");
        return std::optional<std::string>(std::string(v->get_string()));
    }
};

json::object user_message(std::string text)
{
    return {{"role", "user"}, {"content", {{"type", "text"}, {"text", std::move(text)}}}};
}

constexpr char const* exact_figures =
    "Use the lowcostgpu tools for every figure and quote them exactly: never compute or round a price "
    "yourself.";

}

json::array const& prompt_list()
{
    static json::array const list = json::parse(R"json([
{"name":"choose_gpu","title":"Choose a GPU","description":"Pick the cheapest GPU configuration for a workload, with the tools doing the arithmetic.","arguments":[
 {"name":"workload","description":"What to run, e.g. serve a 70B model at int8","required":true},
 {"name":"hours","description":"How long it runs, in hours","required":false},
 {"name":"tier","description":"on_demand, spot or reserved","required":false}]},
{"name":"estimate_training_run","title":"Estimate a training run","description":"The exact cost of a training run on a given GPU, in every tier.","arguments":[
 {"name":"gpu","description":"A catalog id, e.g. h100-sxm","required":true},
 {"name":"hours","description":"Duration in hours","required":true},
 {"name":"gpus","description":"GPUs per instance (default 1)","required":false},
 {"name":"storage_gb","description":"Dataset and checkpoint volume in GB","required":false}]},
{"name":"explain_pricing","title":"Explain the pricing","description":"How LowCostGPU sets its prices, optionally around one glossary term, in English or French.","arguments":[
 {"name":"term","description":"A glossary slug, e.g. on-demand-instance, or a term's name","required":false},
 {"name":"lang","description":"en or fr","required":false}]}
])json").as_array();
    return list;
}

result_or_failure<json::object> get_prompt(std::string_view name, json::object const* arguments,
                                           api::data_view const& data)
{
    prompt_arguments const args{arguments};
    auto const week = data.current_sheet() ? pricing::to_string(data.current_sheet()->week) : std::string("this week");
    if (name == "choose_gpu") {
        auto workload = args.get("workload", true);
        auto hours = args.get("hours", false);
        auto tier = args.get("tier", false);
        for (auto* a : {&workload, &hours, &tier})
            if (!*a)
                return a->err();
        auto const& w = *workload.value();
        auto const& h = hours.value();
        auto const& t = tier.value();
        std::string text = "I need GPUs on LowCostGPU for this workload: " + w + ".";
        if (h)
            text += " It runs for " + *h + " hours.";
        if (t)
            text += " I want the " + *t + " tier.";
        text += "\n\nFind the cheapest configuration that fits at " + week +
                " prices: size it with size_model or find_cheapest, compare the best candidates with compare_gpus, "
                "then cost the choice with estimate_job_cost. If the throughput matters, ask me for it rather than "
                "assuming one. " + exact_figures;
        return json::object{{"description", "Choose a GPU for: " + w}, {"messages", json::array{user_message(text)}}};
    }
    if (name == "estimate_training_run") {
        auto gpu = args.get("gpu", true);
        auto hours = args.get("hours", true);
        auto gpus = args.get("gpus", false);
        auto storage = args.get("storage_gb", false);
        for (auto* a : {&gpu, &hours, &gpus, &storage})
            if (!*a)
                return a->err();
        auto const& g = *gpu.value();
        auto const& h = *hours.value();
        auto const& n = gpus.value();
        auto const& s = storage.value();
        std::string call = "gpu=" + g + ", hours=" + h + (n ? ", gpus=" + *n : std::string()) +
                           (s ? ", storage_gb=" + *s : std::string());
        std::string text = "Estimate a training run on LowCostGPU: " + (n ? *n + " × " : std::string()) + g + " for " + h +
                           " hours" + (s ? " with a " + *s + " GB volume" : std::string()) + ".\n\nCall "
                           "estimate_job_cost with " + call + " and show the itemised lines, the total in each tier "
                           "(on-demand, spot, reserved) and whether the 3-month reserved term would pay off. Mention "
                           "that spot can be interrupted. " + exact_figures;
        return json::object{{"description", "Training run on " + g}, {"messages", json::array{user_message(text)}}};
    }
    if (name == "explain_pricing") {
        auto term = args.get("term", false);
        auto lang = args.get("lang", false);
        for (auto* a : {&term, &lang})
            if (!*a)
                return a->err();
        auto const& t = term.value();
        auto const& l = lang.value();
        if (l && *l != "en" && *l != "fr")
            return invalid_params("argument 'lang' must be en or fr");
        bool const fr = l && *l == "fr";
        std::string text = std::string(fr ? "Réponds en français. " : "") +
                           "Explain how LowCostGPU prices its GPUs: read get_methodology (or the resource "
                           "lowcostgpu://methodology), then illustrate with the " + week + " sheet from get_prices. ";
        if (t) {
            text += "Start from the glossary entry " + pricing::quote(*t) + " (explain_term with lang=" +
                    (fr ? "fr" : "en");
            // A resource is named only when the glossary has that slug: a name or words go to
            // explain_term alone, which finds them.
            auto const* doc = data.glossary(fr ? locale::language::fr : locale::language::en);
            if (doc && (doc->find_term(*t) || doc->find_question(*t)))
                text += ", or the resource lowcostgpu://glossary/" + *t + (fr ? "?lang=fr" : "");
            text += "). ";
        }
        text += exact_figures;
        return json::object{{"description", "How LowCostGPU prices"}, {"messages", json::array{user_message(text)}}};
    }
    return invalid_params("unknown prompt " + pricing::quote(limited(name)) +
                          "; prompts/list names choose_gpu, estimate_training_run and explain_pricing");
}

result_or_failure<json::object> complete(json::object const& params, api::data_view const& data)
{
    auto const* ref = params.if_contains("ref");
    auto const* argument = params.if_contains("argument");
    if (!ref || !ref->is_object() || !argument || !argument->is_object())
        return invalid_params("completion/complete needs params.ref and params.argument (objects)");
    auto const* type = ref->as_object().if_contains("type");
    auto const* name = argument->as_object().if_contains("name");
    auto const* value = argument->as_object().if_contains("value");
    if (!type || !type->is_string() || !name || !name->is_string() || !value || !value->is_string())
        return invalid_params("completion/complete needs ref.type, argument.name and argument.value (strings)");
    std::string_view const kind = type->get_string();
    std::string_view const arg = name->get_string();

    std::vector<std::string> candidates;
    auto gpu_ids = [&] { candidates = data.catalog().ids(); };
    auto slugs = [&] {
        if (auto const* doc = data.glossary(locale::language::en)) {
            for (auto const& t : doc->terms())
                candidates.push_back(t.term->slug);
            for (auto const& q : doc->questions)
                candidates.push_back(q.slug);
        }
    };
    // An unknown prompt or resource is -32602, as the spec lists "invalid prompt name" among the
    // errors of completion/complete; an argument a known prompt or template does not take completes
    // to nothing (there is simply nothing to suggest for it, as for a resource without arguments).
    if (kind == "ref/prompt") {
        auto const* p = ref->as_object().if_contains("name");
        if (!p || !p->is_string())
            return invalid_params("completion/complete needs ref.name (a string) for a ref/prompt");
        std::string_view const prompt = p->get_string();
        auto const& prompts = prompt_list();
        if (std::none_of(prompts.begin(), prompts.end(),
                         [&](json::value const& v) { return v.at("name").as_string() == prompt; }))
            return invalid_params("unknown prompt " + pricing::quote(limited(prompt)) +
                                  " in ref.name; prompts/list names choose_gpu, estimate_training_run and "
                                  "explain_pricing");
        if (prompt == "estimate_training_run" && arg == "gpu")
            gpu_ids();
        else if ((prompt == "choose_gpu" && arg == "tier"))
            candidates = {"on_demand", "spot", "reserved"};
        else if (prompt == "explain_pricing" && arg == "lang")
            candidates = {"en", "fr"};
        else if (prompt == "explain_pricing" && arg == "term")
            slugs();
    } else if (kind == "ref/resource") {
        auto const* u = ref->as_object().if_contains("uri");
        if (!u || !u->is_string())
            return invalid_params("completion/complete needs ref.uri (a string) for a ref/resource");
        std::string_view const uri = u->get_string();
        auto const& templates = resource_templates();
        auto const& resources = resource_list();
        if (std::none_of(templates.begin(), templates.end(),
                         [&](json::value const& v) { return v.at("uriTemplate").as_string() == uri; }) &&
            std::none_of(resources.begin(), resources.end(),
                         [&](json::value const& v) { return v.at("uri").as_string() == uri; }))
            return invalid_params("unknown resource " + pricing::quote(limited(uri)) +
                                  " in ref.uri; resources/templates/list names the templates");
        if ((uri == "lowcostgpu://gpus/{id}" || uri == "lowcostgpu://prices/{id}/history") && arg == "id")
            gpu_ids();
        else if (uri == "lowcostgpu://glossary/{slug}" && arg == "slug")
            slugs();
        else if (uri == "lowcostgpu://sheets/{week}" && arg == "week")
            candidates = published_weeks(data);
    } else {
        return invalid_params("ref.type must be ref/prompt or ref/resource");
    }

    // Cut by bytes, at the bound of an argument's characters: every candidate is a short ASCII id.
    std::string const typed = pricing::ascii_lower(pricing::utf8_prefix(value->get_string(), api::max_argument_characters));
    std::vector<std::string> prefix, inner;
    for (auto& c : candidates) {
        auto const lower = pricing::ascii_lower(c);
        if (lower.starts_with(typed))
            prefix.push_back(std::move(c));
        else if (lower.find(typed) != std::string::npos)
            inner.push_back(std::move(c));
    }
    prefix.insert(prefix.end(), std::make_move_iterator(inner.begin()), std::make_move_iterator(inner.end()));
    std::size_t const total = prefix.size();
    json::array values;
    for (std::size_t i = 0; i < total && i < max_completions; ++i)
        values.emplace_back(prefix[i]);
    return json::object{{"values", std::move(values)}, {"total", total}, {"hasMore", total > max_completions}};
}

}
