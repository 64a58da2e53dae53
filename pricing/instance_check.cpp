#include "instance_check.hpp"

#include "estimate.hpp"
#include "inventory.hpp"
#include "rules.hpp"

#include <algorithm>
#include <span>
#include <tuple>

namespace lcg::pricing {

namespace {

bool is_cpu_generation(std::string_view text)
{
    return text.size() >= 2 && text.size() <= 4 && text.front() == 'v' &&
           std::all_of(text.begin() + 1, text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}

parsed<instance_request> parse_instance_request(instance_parameters const& p, catalog const& cat)
{
    instance_request req;
    auto const model = find_gpu_parameter("gpu", p.gpu, cat);
    if (!model)
        return model.err();
    req.gpu = (*model)->id;
    if (p.gpus) {
        auto const gpus = units_parameter("gpus", *p.gpus, 0);
        if (!gpus)
            return gpus.err();
        req.gpus = static_cast<int>(*gpus);
    }
    auto const vcpus = units_parameter("vcpus", p.vcpus, 0);
    if (!vcpus)
        return vcpus.err();
    req.vcpus = static_cast<int>(*vcpus);
    auto const memory = units_parameter("memory_gib", p.memory_gib, 0);
    if (!memory)
        return memory.err();
    req.memory_gib = static_cast<int>(*memory);
    req.cpu_generation = ascii_lower(p.cpu_generation);
    if (!is_cpu_generation(req.cpu_generation))
        return bad_input("cpu_generation",
                         "cpu_generation: " + quote(p.cpu_generation) +
                             " is not a CPU generation; accepted: v followed by a number, such as v6 or v7",
                         "cpu_generation\u202F: " + quote(p.cpu_generation) +
                             " n’est pas une génération de CPU\u202F; accepté\u202F: v suivi d’un nombre, comme v6 ou v7");
    if (p.region) {
        auto const r = find_region_parameter("region", *p.region, cat);
        if (!r)
            return r.err();
        req.region = (*r)->code;
    }
    if (p.other_gpu) {
        auto const other = find_gpu_parameter("other_gpu", *p.other_gpu, cat);
        if (!other)
            return other.err();
        req.other_gpu = (*other)->id;
    }
    using words = std::span<const std::string_view>;
    for (auto [name, text, flag, true_words] :
         {std::tuple{"cpu_performance", &p.cpu_performance, &req.cpu_performance, words(cpu_performance_words)},
          std::tuple{"dedicated_vm", &p.dedicated_vm, &req.dedicated_vm, words{}}}) {
        if (!*text)
            continue;
        auto const b = parse_flag(name, **text, true_words);
        if (!b)
            return parameter_error{name, b.err()};
        *flag = *b;
    }
    return req;
}

instance_limits limits_in_region(gpu_model const& model, std::string_view region)
{
    instance_limits l{model.max_gpus_per_instance, model.max_vcpus, model.max_memory_gib, model.cpu_generations};
    for (auto const& extra : model.extra_cpu_generations)
        if (extra.region == region)
            for (auto const& g : extra.cpu_generations)
                if (std::find(l.cpu_generations.begin(), l.cpu_generations.end(), g) == l.cpu_generations.end())
                    l.cpu_generations.push_back(g);
    return l;
}

instance_check check_instance(instance_request const& request, gpu_model const& model)
{
    instance_check c;
    c.request = request;
    c.limits = limits_in_region(model, request.region);
    auto const numeric = [&](char const* limit, int allowed, int requested) {
        if (requested > allowed)
            c.problems.push_back({limit, allowed, requested, {}, {}});
    };
    numeric("max_gpus_per_instance", c.limits.max_gpus_per_instance, request.gpus);
    numeric("max_vcpus", c.limits.max_vcpus, request.vcpus);
    numeric("max_memory_gib", c.limits.max_memory_gib, request.memory_gib);
    auto const& gens = c.limits.cpu_generations;
    if (std::find(gens.begin(), gens.end(), request.cpu_generation) == gens.end())
        c.problems.push_back({"cpu_generation", 0, 0, gens, request.cpu_generation});
    if (!request.other_gpu.empty() && request.other_gpu != model.id)
        c.problems.push_back({.limit = std::string(one_gpu_model_limit), .allowed_text = model.id,
                              .requested_text = request.other_gpu});
    if (!request.cpu_performance)
        c.problems.push_back({.limit = std::string(cpu_performance_limit), .allowed_flag = true, .requested_flag = false});
    if (request.dedicated_vm)
        c.problems.push_back({.limit = std::string(not_dedicated_vm_limit), .allowed_flag = false, .requested_flag = true});
    return c;
}

}
