#include "render/log_proof.hpp"
#include "render/resources.hpp"

#include "render/markdown_text.hpp"

namespace lcg::render {

namespace json = boost::json;

json::object log_proof_json(log_proof const& p, language lang)
{
    json::array hashes;
    for (auto const& h : p.proof)
        hashes.emplace_back(h);
    json::object out{{"origin", p.origin},
                     {"size", p.size},
                     {"root_hash", p.root_hash},
                     {"checkpoint", path_of(resource::log_checkpoint)},
                     {"kind", p.index ? "inclusion" : "consistency"}};
    if (p.index) {
        out["index"] = *p.index;
        out["entry"] = p.entry;
        out["leaf_hash"] = p.leaf_hash;
    } else {
        out["from"] = p.from.value_or(0);
        out["from_root_hash"] = p.from_root_hash;
    }
    out["proof"] = std::move(hashes);
    out["note"] = say(lang, p.index ? "log_proof.inclusion_note" : "log_proof.consistency_note");
    out["lang"] = locale::to_string(lang);
    return out;
}

std::string log_proof_markdown(json::object const& p, links const& to)
{
    auto const l = to.lang;
    using md::text;
    bool const inclusion = text(p, "kind") == "inclusion";
    std::string out = "# " +
                      (inclusion ? say(l, "log_proof.inclusion_title", {{"index", text(p, "index")}})
                                 : say(l, "log_proof.consistency_title", {{"from", text(p, "from")}})) +
                      "\n\n" + md::escape(text(p, "note")) + "\n\n";
    out += "- " + say(l, "log_proof.log") + ": " + md::code(text(p, "origin")) + ", " +
           say(l, "log_proof.size", {{"size", text(p, "size")}}) + ", " + md::code(text(p, "root_hash")) + "\n";
    if (inclusion)
        out += "- " + say(l, "log_proof.leaf") + ": " + md::code(text(p, "leaf_hash")) + "\n\n```\n" + text(p, "entry") +
               "```\n\n";
    else
        out += "- " + say(l, "log_proof.earlier_root") + ": " + md::code(text(p, "from_root_hash")) + "\n\n";
    md::table table{say(l, "log_proof.col_step"), say(l, "log_proof.col_hash")};
    int step = 0;
    for (auto const& h : md::array_at(p, "proof"))
        table.row({std::to_string(++step), md::code(h.as_string())});
    return out + table.str();
}

}
