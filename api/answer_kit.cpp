#include "api/answer_kit.hpp"

#include "pricing/estimate.hpp"
#include "pricing/history.hpp"

namespace lcg::api::kit {

answer published(render::resource r, std::string_view name, std::string query)
{
    answer a;
    a.published_path = render::path_of(r, name);
    a.published_query = std::move(query);
    return a;
}

answer computed(boost::json::object doc)
{
    answer a;
    a.document = std::move(doc);
    return a;
}

failure no_sheet()
{
    return {pricing::errc::unavailable, "", "no price sheet is in effect yet; try again after the next publication", {},
            "aucun tarif n’est encore en vigueur\u202F; réessayez après la prochaine publication"};
}

pricing::outcome<pricing::price_sheet const*, failure> sheet_asked(request& r, argument const& week_asked)
{
    auto const& text = week_asked();
    if (!text)
        return r.data.current_sheet();
    auto const named = pricing::sheet_for_week(*text, r.data.sheets(), r.data.current_sheet());
    if (!named)
        return refused(named.err(), "week");
    return *named;
}

pricing::outcome<pricing::price_sheet const*, failure> priced_sheet(request& r, argument const& week_asked)
{
    auto sheet = sheet_asked(r, week_asked);
    if (sheet && !*sheet)
        return no_sheet();
    return sheet;
}

pricing::outcome<pricing::gpu_model const*, failure> required_gpu(request& r, argument const& gpu_asked)
{
    auto const model = pricing::find_gpu_parameter("gpu", *gpu_asked(), r.data.catalog());
    if (!model) {
        auto f = refused(model.err());
        f.code = pricing::errc::not_found;  // a well-formed name that the catalog lacks
        return f;
    }
    return *model;
}

}
