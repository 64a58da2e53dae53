// The operation that proves the publication log: an entry's inclusion, or one size's consistency
// with an earlier one.
#include "api/answer_kit.hpp"

#include "render/log_proof.hpp"

#include "pricing/quantity.hpp"

namespace lcg::api::answers {

using namespace kit;

namespace {

// A log of a publication a week for ages stays far below this; the bound keeps a size from overflowing.
constexpr std::int64_t max_log_index = std::int64_t{1} << 40;

struct log_proof_input : input {
    argument index{this, {"index", vt::integer, "An entry of the log, from 0: prove it is among the first `size` entries",
                          false, {}, 0, max_log_index}};
    argument from{this, {"from", vt::integer, "An earlier size of the log: prove that the log of `size` entries extends it",
                         false, {}, 1, max_log_index}};
    argument size{this, {"size", vt::integer,
                         "The size of the log the proof is against (default: its size now, the newest checkpoint's)", false,
                         {}, 1, max_log_index}};
};

// A whole number argument, if given (the decoder checked its bounds); over HTTP it arrives as text.
pricing::outcome<std::optional<std::uint64_t>, failure> count_argument(argument const& a)
{
    auto const& text = a();
    if (!text)
        return std::optional<std::uint64_t>();
    auto const count = pricing::units_parameter(a.spec().name, *text, 0);
    if (!count)
        return refused(count.err());
    return std::optional<std::uint64_t>(static_cast<std::uint64_t>(*count));
}

result log_proof(request& r, log_proof_input const& in)
{
    auto const* log = r.data.log();
    auto const index_arg = count_argument(in.index);
    auto const from_arg = count_argument(in.from);
    auto const size_arg = count_argument(in.size);
    for (auto const* a : {&index_arg, &from_arg, &size_arg})
        if (!*a)
            return a->err();
    auto const index = *index_arg, from = *from_arg;
    auto const size = size_arg->value_or(log ? log->size() : 0);
    if (!log || log->size() == 0 || log->origin().empty())
        return failure{pricing::errc::unavailable, "", "the publication log has no signed checkpoint yet", {},
                       "le journal des publications n’a pas encore de point de contrôle signé"};
    if (index && from)
        return refused(pricing::invalid("index or from, not both: index asks an inclusion proof, from a consistency proof",
                                        "index ou from, pas les deux\u202F: index demande une preuve d’inclusion, from une "
                                        "preuve de cohérence"),
                       "from");
    if (!index && !from)
        return refused(pricing::invalid("index or from is required: index for an inclusion proof, from for a consistency proof",
                                        "index ou from est requis\u202F: index pour une preuve d’inclusion, from pour une "
                                        "preuve de cohérence"),
                       "index");
    std::string const entries = std::to_string(size);
    if (size > log->size())
        return refused(pricing::invalid("size is more than the log's " + std::to_string(log->size()) + " entries",
                                        "size dépasse les " + std::to_string(log->size()) + " entrées du journal"),
                       "size");
    if (index && *index >= size)
        return refused(pricing::invalid("index is more than the last entry of a log of " + entries + " (entries count from 0)",
                                        "index dépasse la dernière entrée d’un journal de " + entries +
                                            " (les entrées se comptent à partir de 0)"),
                       "index");
    if (from && *from > size)
        return refused(pricing::invalid("from is more than size (" + entries + ")",
                                        "from dépasse size (" + entries + ")"),
                       "from");
    render::log_proof p;
    p.origin = log->origin();
    p.size = size;
    p.root_hash = log->root_hash(size);
    if (index) {
        p.index = index;
        p.entry = log->entry(*index);
        p.leaf_hash = log->leaf_hash(*index);
        p.proof = log->inclusion_proof(*index, size);
    } else {
        p.from = from;
        p.from_root_hash = log->root_hash(*from);
        p.proof = log->consistency_proof(*from, size);
    }
    return computed(render::log_proof_json(p, r.lang));
}

}

answering get_log_proof() { return answered_by<log_proof_input, log_proof>(); }

}
