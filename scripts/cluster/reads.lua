-- wrk's read load for the cluster fault test: store pages, a store's reviews, the store list, daily promotions.
local paths = {}
function init(args)
    for _, path in ipairs(args) do paths[#paths + 1] = path end
end
local i = 0
function request()
    i = i % #paths + 1
    return wrk.format("GET", paths[i])
end
