#include "render/views.hpp"

#include "render/quote.hpp"
#include "render/rent_vs_buy.hpp"
#include "render/log_proof.hpp"
#include "render/transfer.hpp"

#include "render/csv.hpp"
#include "render/dataset.hpp"
#include "render/json.hpp"
#include "render/markdown.hpp"
#include "render/markdown_text.hpp"
#include "render/site.hpp"

#include <stdexcept>

namespace lcg::render {

constinit view const sheet_view{sheet_markdown, sheet_csv, sheet_dataset_ld};
constinit view const price_view{price_markdown};
constinit view const catalog_view{catalog_markdown, catalog_csv};
constinit view const gpu_view{gpu_markdown};
constinit view const price_history_view{price_history_markdown, price_history_csv};
constinit view const history_table_view{history_table_markdown, history_table_csv};
constinit view const sheet_index_view{sheet_index_markdown, sheet_index_csv};
constinit view const observations_view{observations_markdown};
constinit view const methodology_view{methodology_markdown};
constinit view const regions_view{regions_markdown, regions_csv};
constinit view const sources_view{sources_markdown, sources_csv};
constinit view const raw_inputs_view{raw_inputs_markdown, raw_inputs_csv};
constinit view const inventory_view{inventory_markdown, inventory_csv};
constinit view const glossary_view{glossary_markdown, glossary_csv};
constinit view const glossary_entry_view{glossary_entry_markdown};
constinit view const estimate_view{estimate_markdown};
constinit view const sizing_view{sizing_markdown};
constinit view const comparison_view{comparison_markdown};
constinit view const instance_check_view{instance_check_markdown};
constinit view const cheapest_view{cheapest_markdown};
constinit view const quote_check_view{quote_check_markdown};
constinit view const transfer_view{transfer_markdown};
constinit view const rent_vs_buy_view{rent_vs_buy_markdown};
constinit view const log_proof_view{log_proof_markdown};
constinit view const index_view{index_markdown, nullptr, index_dataset_ld};

format_set view::formats() const { return csv ? table_formats : document_formats; }

namespace {

// A document built from synthetic sample data says so on every page, first thing under its title.
std::string markdown_of(view const& v, boost::json::object const& doc, links const& to)
{
    std::string out = v.markdown(doc, to);
    if (!md::is_sample(doc))
        return out;
    std::size_t at = 0;
    if (out.starts_with("# ")) {
        at = out.find('\n');
        at = at == std::string::npos ? out.size() : at + 1;
        if (at < out.size() && out[at] == '\n')
            ++at;
    }
    out.insert(at, md::sample_banner(to.lang) + "\n");
    return out;
}

}

std::string write(format f, view const& v, boost::json::object const& doc, page const& where)
{
    switch (f) {
    case format::json: return to_text(doc);
    case format::markdown:
        if (v.markdown)
            return markdown_of(v, doc, links{format::markdown, where.lang});
        break;
    case format::html:
        if (v.markdown && v.linked_data) {
            page described = where;
            described.linked_data = to_text(v.linked_data(doc));
            return html_page(markdown_of(v, doc, links{format::html, where.lang}), described);
        }
        if (v.markdown)
            return html_page(markdown_of(v, doc, links{format::html, where.lang}), where);
        break;
    case format::csv:
        if (v.csv)
            return v.csv(doc);
        break;
    case format::text: break;
    }
    throw std::logic_error("no writer for this format of the resource");
}

}
