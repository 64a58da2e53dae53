#pragma once

#include "catalog.hpp"
#include "quantity.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// Does a GPU model attach to an instance of a given shape (DESIGN §6)? A model attaches only to an
// instance within its limits: GPUs per instance, vCPUs and memory (per instance, whatever its number
// of GPUs, as the public documentation quotes them) and a compatible CPU generation — the model's
// own generations plus those its region adds (the sovereign region accepts more for some models).
// The cloud documentation's other attachment rules are limits too: the GPUs of one instance are all
// of one model, the instance has the processor performance flag, and it is not a dedicated VM.
namespace lcg::pricing {

struct instance_parameters {
    std::string gpu{};
    std::optional<std::string> gpus{};
    std::string vcpus{};
    std::string memory_gib{};
    std::string cpu_generation{};
    std::optional<std::string> region{};
    std::optional<std::string> other_gpu{};
    std::optional<std::string> cpu_performance{};
    std::optional<std::string> dedicated_vm{};
};

struct instance_request {
    std::string gpu;
    int gpus = 1;
    int vcpus = 0;
    int memory_gib = 0;
    std::string cpu_generation;  // "v7"
    std::string region;          // empty: no region given, the limits every region applies
    std::string other_gpu;       // another model asked for on the same instance, or empty
    bool cpu_performance = true;  // the instance's processor performance flag (assumed on when not given)
    bool dedicated_vm = false;
};

// gpu (catalog id), vcpus, memory_gib and cpu_generation ("v" and a number, any letter case) are
// given; gpus (default 1), region (a region code), other_gpu (a catalog id), cpu_performance and
// dedicated_vm (true or false) are optional. Precondition: the counts within their parameters'
// bounds (vcpus 1 to 4096, memory_gib 1 to 65536, gpus 1 to 64), which the API's decoder checks.
// A request beyond the model's limits is well-formed: check_instance reports it.
parsed<instance_request> parse_instance_request(instance_parameters const& params, catalog const& cat);

struct instance_limits {
    int max_gpus_per_instance = 0;
    int max_vcpus = 0;
    int max_memory_gib = 0;
    std::vector<std::string> cpu_generations;  // the model's, then the region's extras
};
// The limits of `model` in `region` (empty: in every region).
instance_limits limits_in_region(gpu_model const& model, std::string_view region);

// The attachment rules that are not figures of a model, by the names a broken one is reported under.
inline constexpr std::string_view one_gpu_model_limit = "one_gpu_model";            // all GPUs of one model
inline constexpr std::string_view cpu_performance_limit = "cpu_performance_flag";   // the flag must be on
// The cloud document's own word for the flag on, accepted for cpu_performance beside true.
inline constexpr std::string_view cpu_performance_words[] = {"highest"};
inline constexpr std::string_view not_dedicated_vm_limit = "not_dedicated_vm";      // no GPU on a dedicated VM

// One broken limit: numeric (allowed / requested), the CPU generation (allowed_generations /
// requested_generation), the GPU model (allowed_text / requested_text) or a flag (allowed_flag /
// requested_flag).
struct limit_problem {
    std::string limit;  // "max_gpus_per_instance", "max_vcpus", "max_memory_gib", "cpu_generation", or a rule above
    std::int64_t allowed = 0;
    std::int64_t requested = 0;
    std::vector<std::string> allowed_generations{};
    std::string requested_generation{};
    std::string allowed_text{};
    std::string requested_text{};
    std::optional<bool> allowed_flag{};
    bool requested_flag = false;
};

struct instance_check {
    instance_request request;
    instance_limits limits;
    std::vector<limit_problem> problems;  // every broken limit, in the order above; empty when it fits
    bool ok() const { return problems.empty(); }
};

instance_check check_instance(instance_request const& request, gpu_model const& model);

}
