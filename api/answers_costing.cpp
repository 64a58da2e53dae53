// The operations that cost and size: comparing models, a job's estimate, a model's sizing, the
// cheapest fit, an instance's check, renting against buying, and moving data between GPUs.
#include "api/answer_kit.hpp"

#include "render/costing_json.hpp"
#include "render/json.hpp"
#include "render/rent_vs_buy.hpp"
#include "render/transfer.hpp"

#include "pricing/cheapest.hpp"
#include "pricing/compare.hpp"
#include "pricing/estimate.hpp"
#include "pricing/instance_check.hpp"
#include "pricing/rent_vs_buy.hpp"
#include "pricing/sizing.hpp"
#include "pricing/transfer.hpp"

namespace lcg::api::answers {

using namespace kit;

namespace {

struct compare_input : input {
    argument gpus{this, {"gpus", vt::string_list, "2 to 8 distinct catalog ids (over HTTP separated by commas: l40s,h100-sxm)",
                         true, {}, std::nullopt, std::nullopt, false, 2, rules::max_compared_gpus}};
    argument week{this, kit::week};
};

result compare(request& r, compare_input const& in)
{
    auto const& cat = r.data.catalog();
    auto const form = r.args.from() == arguments::face::mcp ? pricing::list_form::array : pricing::list_form::commas;
    auto const ids = pricing::parse_gpu_list("gpus", *in.gpus(), cat, form);
    auto const asked = sheet_for(ids, r, in.week, sheet_asked);
    if (!asked)
        return asked.err();
    auto const* sheet = *asked;
    auto const comparison = pricing::compare_gpus(*ids, cat, sheet);
    if (!comparison)
        return refused(comparison.err(), "gpus");
    return computed(render::comparison_json(*comparison, cat, sheet, r.lang));
}

struct estimate_input : input {
    argument gpu{this, gpu_id};
    argument gpus{this, {"gpus", vt::integer, "GPUs (default 1); past the model's limit per instance, priced as several instances",
                         false, {}, 1, rules::max_requested_gpus}};
    argument seconds{this, {"seconds", vt::integer, "Duration in whole seconds (give seconds or hours)", false, {}, 1,
                            std::int64_t{rules::max_job_hours} * rules::seconds_per_hour}};
    argument hours{this, {"hours", vt::number, "Duration in hours, up to 6 decimals (give seconds or hours)", false, {}, 0,
                          rules::max_job_hours, true}};
    argument tier{this, kit::tier};
    argument storage_gb{this, {"storage_gb", vt::number, "Volume size in GB", false, {}, 0, rules::max_storage_gb}};
    argument storage_hours{this, {"storage_hours", vt::number,
                                  "How long the volume is kept, in hours (default: the job's duration); needs storage_gb",
                                  false, {}, 0, rules::max_job_hours, true}};
    argument egress_gb{this, {"egress_gb", vt::number, "GB sent out", false, {}, 0, rules::max_network_gb}};
    argument ingress_gb{this, {"ingress_gb", vt::number, "GB received", false, {}, 0, rules::max_network_gb}};
    argument tokens_per_second{this, {"tokens_per_second", vt::number, "Your measured throughput, for the cost per million tokens",
                                      false, {}, 0, rules::max_tokens_per_second, true}};
    argument images_per_hour{this, {"images_per_hour", vt::number, "Your measured throughput, for the cost per image", false,
                                    {}, 0, rules::max_images_per_hour, true}};
    argument week{this, kit::week};
};

result estimate(request& r, estimate_input const& in)
{
    auto const& cat = r.data.catalog();
    auto const job = pricing::parse_job({.gpu = *in.gpu(), .gpus = in.gpus(), .seconds = in.seconds(), .hours = in.hours(),
                                         .tier = in.tier(), .storage_gb = in.storage_gb(), .storage_hours = in.storage_hours(),
                                         .egress_gb = in.egress_gb(), .ingress_gb = in.ingress_gb(),
                                         .tokens_per_second = in.tokens_per_second(), .images_per_hour = in.images_per_hour()},
                                        cat);
    auto const priced = sheet_for(job, r, in.week, priced_sheet);
    if (!priced)
        return priced.err();
    auto const* sheet = *priced;
    auto const estimate = pricing::estimate_job(*job, sheet->find(job->gpu));
    if (!estimate)
        return refused(estimate.err(), "gpu");
    answer a;
    a.json_text = render::estimate_text(*estimate, *cat.find(job->gpu), *sheet, r.lang);
    return a;
}

struct sizing_input : input {
    argument params_b{this, params_b_required};
    argument precision{this, precision_required};
    argument gpu{this, only_gpu};
    argument week{this, kit::week};
};

result sizing(request& r, sizing_input const& in)
{
    auto const& cat = r.data.catalog();
    auto const spec = pricing::parse_model_spec({.params_b = *in.params_b(), .precision = *in.precision(), .gpu = in.gpu()}, cat);
    auto const asked = sheet_for(spec, r, in.week, sheet_asked);
    if (!asked)
        return asked.err();
    auto const* sheet = *asked;
    return computed(render::sizing_json(pricing::size_model(*spec, cat, sheet), cat, sheet, r.lang));
}

struct cheapest_input : input {
    argument params_b{this, kit::params_b};
    argument precision{this, kit::precision};
    argument vram_gb{this, {"vram_gb", vt::number, "Memory needed in GB, instead of params_b and precision", false, {}, 0,
                            rules::max_needed_vram_gb, true}};
    argument hours{this, {"hours", vt::number, "Duration in hours (default 1, up to 6 decimals)", false, {}, 0,
                          rules::max_job_hours, true}};
    argument tier{this, kit::tier};
    argument week{this, kit::week};
};

result cheapest(request& r, cheapest_input const& in)
{
    auto const& cat = r.data.catalog();
    auto const query = pricing::parse_cheapest_query({.params_b = in.params_b(), .precision = in.precision(),
                                                      .vram_gb = in.vram_gb(), .hours = in.hours(), .tier = in.tier()},
                                                     cat);
    auto const priced = sheet_for(query, r, in.week, priced_sheet);
    if (!priced)
        return priced.err();
    auto const* sheet = *priced;
    return computed(render::cheapest_json(*query, pricing::cheapest_configurations(*query, cat, *sheet), cat, *sheet, r.lang));
}

struct instance_input : input {
    argument gpu{this, gpu_id};
    argument gpus{this, {"gpus", vt::integer, "GPUs in the instance (default 1)", false, {}, 1, rules::max_requested_gpus}};
    argument vcpus{this, {"vcpus", vt::integer, "vCPUs of the instance", true, {}, 1, rules::max_requested_vcpus}};
    argument memory_gib{this, {"memory_gib", vt::integer, "Memory of the instance in GiB", true, {}, 1,
                               rules::max_requested_memory_gib}};
    argument cpu_generation{this, {"cpu_generation", vt::string, "Processor generation: v followed by a number, such as v7", true}};
    argument region{this, {"region", vt::string, "A region code (optional; some regions allow more CPU generations)"}};
    argument other_gpu{this, {"other_gpu", vt::string,
                              "Another catalog model wanted on the same instance (its GPUs must all be of one model)"}};
    argument cpu_performance{this, {"cpu_performance", vt::boolean,
                                    "Whether the instance has the processor performance flag, which a GPU needs (default "
                                    "true); \"highest\", the cloud document's word, is true",
                                    false, {}, {}, {}, false, 0, 0, pricing::cpu_performance_words}};
    argument dedicated_vm{this, {"dedicated_vm", vt::boolean, "Whether the instance is a dedicated VM, which takes no GPU (default false)"}};
};

result instance(request& r, instance_input const& in)
{
    auto const& cat = r.data.catalog();
    auto const wanted = pricing::parse_instance_request(
        {.gpu = *in.gpu(), .gpus = in.gpus(), .vcpus = *in.vcpus(), .memory_gib = *in.memory_gib(),
         .cpu_generation = *in.cpu_generation(), .region = in.region(), .other_gpu = in.other_gpu(),
         .cpu_performance = in.cpu_performance(), .dedicated_vm = in.dedicated_vm()},
        cat);
    if (!wanted)
        return refused(wanted.err());
    return computed(render::instance_check_json(pricing::check_instance(*wanted, *cat.find(wanted->gpu))));
}

struct rent_vs_buy_input : input {
    argument gpu{this, gpu_id};
    argument gpus{this, {"gpus", vt::integer, "GPUs rented, or bought (default 1)", false, {}, 1, rules::max_requested_gpus}};
    argument tier{this, kit::tier};
    argument week{this, kit::week};
    argument purchase_price{this, {"purchase_price", vt::number,
                                   "What buying those GPUs costs, in USD (the whole machine, if you buy one)", true, {}, 0,
                                   rules::max_purchase_price.micros() / 1'000'000}};
    argument power_watts{this, {"power_watts", vt::integer, "The machine's power draw while it works, in whole watts", true, {},
                                0, rules::max_power_watts}};
    argument electricity_price{this, {"electricity_price", vt::number, "Electricity price, USD per kWh (up to 6 decimals)", true,
                                      {}, 0, rules::max_electricity_price.micros() / 1'000'000}};
    argument hosting_per_month{this, {"hosting_per_month", vt::number,
                                      "Hosting per month in USD: space, cooling, network, upkeep, and the draw while idle", true,
                                      {}, 0, rules::max_hosting_per_month.micros() / 1'000'000}};
    argument utilisation{this, {"utilisation", vt::number,
                                "Percentage of the horizon's hours the GPUs work, 0 to 100 (up to 2 decimals)", true, {}, 0, 100}};
    argument months{this, {"months", vt::integer, "The horizon in whole months, 1 to 120", true, {}, 1, rules::max_horizon_months}};
};

result rent_or_buy(request& r, rent_vs_buy_input const& in)
{
    auto const q = pricing::parse_rent_vs_buy(
        {.gpu = *in.gpu(), .gpus = in.gpus(), .tier = in.tier(), .week = in.week(), .purchase_price = *in.purchase_price(),
         .power_watts = *in.power_watts(), .electricity_price = *in.electricity_price(),
         .hosting_per_month = *in.hosting_per_month(), .utilisation = *in.utilisation(), .months = *in.months()},
        r.data.catalog(), r.data.sheets(), r.data.current_sheet());
    if (!q)
        return refused(q.err());
    auto const answer = pricing::compare_rent_vs_buy(*q);
    if (!answer)
        return refused(answer.err(), "gpu");
    return computed(render::rent_vs_buy_json(*answer, r.lang));
}

struct transfer_input : input {
    argument gb{this, {"gb", vt::number, "The amount of data moved, in GB (default 10, the lesson's example; up to 6 decimals)",
                       false, {}, 0, rules::max_transfer_gb, true}};
};

result transfer(request& r, transfer_input const& in)
{
    auto const micro_gb = pricing::parse_transfer({.gb = in.gb()});
    if (!micro_gb)
        return refused(micro_gb.err());
    auto const times = pricing::transfer_times(*micro_gb);
    return computed(render::transfer_json(*micro_gb, times, r.lang));
}

}

answering compare_gpus() { return answered_by<compare_input, compare>(); }
answering estimate_job_cost() { return answered_by<estimate_input, estimate>(); }
answering size_model() { return answered_by<sizing_input, sizing>(); }
answering find_cheapest() { return answered_by<cheapest_input, cheapest>(); }
answering rent_vs_buy() { return answered_by<rent_vs_buy_input, rent_or_buy>(); }
answering transfer_time() { return answered_by<transfer_input, transfer>(); }
answering check_instance() { return answered_by<instance_input, instance>(); }

}
